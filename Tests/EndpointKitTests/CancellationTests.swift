import Foundation
import XCTest

@_spi(Locking) @testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A cancelled call returns at once, exactly once, and the server sees the connection close.
final class CancellationTests: ServerTestCase {
    /// An adapter that takes a while, so cancels can land during adaptation.
    struct SlowAdapter: RequestAdapter {
        let base: BaseRequestAdapter
        let nanoseconds: UInt64
        func adapt(_ request: URLRequest) async throws -> URLRequest {
            if nanoseconds > 0 { try await Task.sleep(nanoseconds: nanoseconds) }
            return try base.adapt(request)
        }
    }

    func testTaskCancelEndsASlowCallAndClosesTheConnection() async throws {
        let (server, client) = (self.server!, self.client!)
        let started = Date()
        let task = Task { try await client.request(SlowEndpoint(seconds: 10)) }
        let arrived = await waitUntil(timeout: 5) { server.requests.count == 1 }
        XCTAssertTrue(arrived)
        task.cancel()
        let result = await task.result
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        XCTAssertTrue(result.error is CancellationError, "\(result)")
        let disconnected = await server.waitForDisconnect(of: "/slow")
        XCTAssertTrue(disconnected)
        XCTAssertEqual(observed.calls.count, 1)
        XCTAssertTrue(observed.calls.first?.error is CancellationError)
    }

    func testProgressCancelEndsASlowCallAndClosesTheConnection() async throws {
        let server = self.server!
        let started = Date()
        let box = Locked<Progress?>(nil)
        let result: Result<Void, any Error> = await withCheckedContinuation { continuation in
            let progress = client.request(SlowEndpoint(seconds: 10)) { continuation.resume(returning: $0) }
            box.withLock { $0 = progress }
            Task {
                _ = await waitUntil(timeout: 5) { server.requests.count == 1 }
                box.withLock { $0 }?.cancel()
            }
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        XCTAssertTrue(result.error is CancellationError, "\(result)")
        let disconnected = await server.waitForDisconnect(of: "/slow")
        XCTAssertTrue(disconnected)
        XCTAssertEqual(observed.calls.count, 1)
    }

    func testCancelBeforeTheCallStartsSendsNothing() async throws {
        let client = self.client!
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.request(GetBook())
        }
        let result = await task.result
        XCTAssertTrue(result.error is CancellationError, "\(result)")
        XCTAssertEqual(server.requests.count, 0)
    }

    func testProgressCancelDuringAdaptationSendsNothing() async throws {
        let adapter = SlowAdapter(base: BaseRequestAdapter(baseURL: server.baseURL), nanoseconds: 300_000_000)
        let client = URLSessionClient(requestAdapter: adapter, responseObserver: observed.observer)
        defer { client.invalidate() }
        let result: Result<Book, any Error> = await withCheckedContinuation { continuation in
            let progress = client.request(GetBook()) { continuation.resume(returning: $0) }
            progress.cancel()
        }
        XCTAssertTrue(result.error is CancellationError, "\(result)")
        XCTAssertEqual(server.requests.count, 0)
        XCTAssertEqual(observed.calls.count, 1)
    }

    /// Cancels at random moments: before adapting, during it, as the task starts, mid-response.
    /// Every call must end exactly once, promptly, with content or `CancellationError`.
    func testRandomCancellationNeverHangsOrResumesTwice() async throws {
        let iterations = Int(ProcessInfo.processInfo.environment["CANCEL_ITERATIONS"] ?? "") ?? 1_000
        let adapter = SlowAdapter(base: BaseRequestAdapter(baseURL: server.baseURL), nanoseconds: 200_000)
        let client = URLSessionClient(requestAdapter: adapter, responseObserver: observed.observer)
        defer { client.invalidate() }
        let completions = Locked(0)
        let outcomes = Locked((succeeded: 0, cancelled: 0))
        let started = Date()
        for iteration in 0..<iterations {
            let delay = UInt64.random(in: 0...2_000_000)
            let slow = iteration % 10 == 0
            if iteration % 2 == 0 {
                let task = Task {
                    if slow { try await client.request(SlowEndpoint(seconds: 10)) } else { _ = try await client.request(GetBook()) }
                }
                try await Task.sleep(nanoseconds: delay)
                task.cancel()
                switch await task.result {
                case .success: outcomes.withLock { $0.succeeded += 1 }
                case .failure(let error):
                    XCTAssertTrue(error is CancellationError, "\(error)")
                    outcomes.withLock { $0.cancelled += 1 }
                }
            } else {
                let result: Result<Void, any Error> = await withCheckedContinuation { continuation in
                    let done: @Sendable (Result<Void, any Error>) -> Void = { result in
                        completions.withLock { $0 += 1 }
                        continuation.resume(returning: result)
                    }
                    let progress =
                        slow
                        ? client.request(SlowEndpoint(seconds: 10), completionHandler: done)
                        : client.request(GetBook()) { done($0.map { _ in }) }
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(delay))) {
                        progress.cancel()
                    }
                }
                switch result {
                case .success: outcomes.withLock { $0.succeeded += 1 }
                case .failure(let error):
                    XCTAssertTrue(error is CancellationError, "\(error)")
                    outcomes.withLock { $0.cancelled += 1 }
                }
            }
        }
        // A late second completion would show up here.
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(completions.withLock { $0 }, iterations / 2)
        XCTAssertEqual(observed.calls.count, iterations)
        let (succeeded, cancelled) = outcomes.withLock { $0 }
        XCTAssertEqual(succeeded + cancelled, iterations)
        XCTAssertGreaterThan(cancelled, 0)
        print("random cancellation: \(iterations) calls, \(cancelled) cancelled, \(succeeded) completed, "
            + String(format: "%.1f s", Date().timeIntervalSince(started)))
    }
}
