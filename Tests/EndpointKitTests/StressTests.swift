import Foundation
import XCTest

@_spi(Locking) @testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Many calls against a server that resets, stalls, truncates and fails at random, with random
/// cancellation: every call ends exactly once, nothing hangs or leaks. `STRESS_REQUESTS` sets
/// the count (1,000 by default; the full run uses 10,000).
final class StressTests: ServerTestCase {
    let faults = FaultRoutes()
    override var routes: TestServer.Handler { faults.handler }

    enum Outcome: String, CaseIterable { case succeeded, cancelled, timedOut, transport, status, other }

    static func outcome(_ result: Result<Attempt, any Error>) -> Outcome {
        switch result {
        case .success: .succeeded
        case .failure(let error as EndpointKitError):
            switch error {
            case .timedOut: .timedOut
            case .transportFailed: .transport
            case .unacceptableStatus: .status
            default: .other
            }
        case .failure(let error): error is CancellationError ? .cancelled : .other
        }
    }

    func testThousandsOfCallsAgainstAFaultyServerEachEndOnce() async throws {
        let count = Int(ProcessInfo.processInfo.environment["STRESS_REQUESTS"] ?? "") ?? 1_000
        let client = URLSessionClient(baseURL: server.baseURL, retryPolicy: .fast, timeout: 1)
        defer { client.invalidate() }
        let endings = Locked([Int: Int]())
        let outcomes = Locked([Outcome: Int]())
        let residentBefore = residentMemory()
        let started = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<count {
                if n >= 48 { try await group.next() }
                group.addTask {
                    let endpoint = AttemptEndpoint(path: "chaos?n=\(n)")
                    let cancelAfter: UInt64? = Int.random(in: 0..<10) < 3 ? UInt64.random(in: 0...5_000_000) : nil
                    let result: Result<Attempt, any Error>
                    if n % 2 == 0 {
                        let task = Task { try await client.request(endpoint) }
                        if let cancelAfter {
                            try? await Task.sleep(nanoseconds: cancelAfter)
                            task.cancel()
                        }
                        result = await task.result
                        endings.withLock { $0[n, default: 0] += 1 }
                    } else {
                        result = await withCheckedContinuation { continuation in
                            let progress = client.request(endpoint) { result in
                                endings.withLock { $0[n, default: 0] += 1 }
                                continuation.resume(returning: result)
                            }
                            if let cancelAfter {
                                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(cancelAfter))) { progress.cancel() }
                            }
                        }
                    }
                    outcomes.withLock { $0[Self.outcome(result), default: 0] += 1 }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = Date().timeIntervalSince(started)
        try await Task.sleep(nanoseconds: 500_000_000)  // a late second ending would land here
        XCTAssertEqual(endings.withLock { $0.count }, count)
        XCTAssertTrue(endings.withLock { $0.values.allSatisfy { $0 == 1 } })
        XCTAssertEqual(client.delegate.activeTaskCount, 0, "no task left routed")
        let outcome = outcomes.withLock { $0 }
        XCTAssertEqual(outcome.values.reduce(0, +), count)
        XCTAssertEqual(outcome[.other, default: 0], 0)
        XCTAssertGreaterThan(outcome[.succeeded, default: 0], count / 3)
        XCTAssertGreaterThan(outcome[.cancelled, default: 0], 0)
        let growth = residentMemory() - residentBefore
        XCTAssertLessThan(growth, 64 << 20)
        let requests = faults.count("/chaos")
        print(
            "stress: \(count) calls, \(requests) requests in \(String(format: "%.1f", elapsed)) s; "
                + Outcome.allCases.map { "\($0.rawValue) \(outcome[$0, default: 0])" }.joined(separator: ", ")
                + "; resident memory \(growth >> 20) MB above start")
    }
}
