@_spi(Locking) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct ChaosBook: JSONEndpoint {
    struct Book: Decodable, Sendable { let id: Int }
    typealias Content = Book
    let n: Int
    func makeRequest() throws -> URLRequest { try URLRequest(.get, "chaos?n=\(n)") }
}

/// Thousands of calls against `/chaos` with random cancellation: every call must end exactly
/// once, promptly, with memory back near its start.
enum Stress {
    static func run(baseURL: URL, count: Int) async throws {
        let client = URLSessionClient(baseURL: baseURL, retryPolicy: RetryPolicy(initialDelay: 0.01, maximumDelay: 0.05), timeout: 0.3)
        let endings = Locked([Int: Int]())
        let kinds = Locked([String: Int]())
        let cancelled = Locked(0)
        let before = Memory.resident().current
        Memory.resetPeak()
        let started = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<count {
                if n >= 48 { try await group.next() }
                group.addTask {
                    let task = Task { try await client.request(ChaosBook(n: n)) }
                    if Int.random(in: 0..<10) < 3 {
                        try? await Task.sleep(nanoseconds: UInt64.random(in: 0...5_000_000))
                        task.cancel()
                        cancelled.update { $0 += 1 }
                    }
                    let kind: String
                    switch await task.result {
                    case .success: kind = "succeeded"
                    case .failure(let error as EndpointKitError): kind = Self.name(error)
                    case .failure(let error): kind = error is CancellationError ? "cancelled" : "other: \(error)"
                    }
                    endings.update { $0[n, default: 0] += 1 }
                    kinds.update { $0[kind, default: 0] += 1 }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = Date().timeIntervalSince(started)
        let once = endings.value.count == count && endings.value.values.allSatisfy { $0 == 1 }
        client.invalidate()
        print("Stress: \(count) calls to a server that resets, stalls, truncates and answers 503 at random")
        print(String(format: "  finished in %.1f s; every call ended exactly once: %@", elapsed, once ? "yes ✓" : "NO ✗"))
        print("  cancellations requested: \(cancelled.value)")
        for (kind, number) in kinds.value.sorted(by: { $0.value > $1.value }) {
            print("  " + kind.padding(toLength: 28, withPad: " ", startingAt: 0) + "\(number)")
        }
        let (current, peak) = Memory.resident()
        print(String(format: "  resident memory: peak %.1f MB above start, %.1f MB above start at the end",
            Double(peak - before) / 1_048_576, Double(current - before) / 1_048_576))
    }

    static func name(_ error: EndpointKitError) -> String {
        switch error {
        case .timedOut: "timed out"
        case .transportFailed: "transport failed"
        case .unacceptableStatus: "unacceptable status"
        case .decodingFailed: "decoding failed"
        default: "other"
        }
    }
}
