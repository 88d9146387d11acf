import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client under load never takes its server down with it, nor stalls behind its own
/// cancelled calls.
extension ClientScenarios {
    var overloadScenarios: [(String, @Sendable (TestServer, FaultRoutes) async throws -> Void)] {
        [
            ("burst against a server with few threads", burstAgainstFewThreads)
        ]
    }

    /// 300 GETs at once, then 300 more with 2 in 3 cancelled at random in their first 50 ms,
    /// against a server that takes new connections with 16 threads, each of which waits 2 s for
    /// a connection's first request (gunicorn's threaded worker waits 5 s). A client that opens
    /// a connection per queued call leaves many of them idle; each idle one holds a thread for
    /// those 2 s, and the calls behind them wait (AsyncHTTPClient with 1,024 connections per
    /// host took 5–60 s for such a burst against gunicorn). Every call that was not cancelled
    /// must succeed, and the call after each burst must not wait for a thread.
    func burstAgainstFewThreads(_: TestServer, _ faults: FaultRoutes) async throws {
        let gate = AcceptGate(workers: 16, firstDataTimeout: 2)
        let server = try await TestServer.start(gate: gate, faults.handler)
        do {
            try await with(server) { client in
                for cancelling in [false, true] {
                    let outcomes = await withTaskGroup(of: String.self) { group in
                        for index in 0..<300 {
                            let call = Task { try await client.request(AttemptEndpoint(path: "/flaky?key=burst")) }
                            let cancels = cancelling && index % 3 != 0
                            group.addTask {
                                if cancels {
                                    try? await Task.sleep(nanoseconds: UInt64.random(in: 0...50_000_000))
                                    call.cancel()
                                }
                                switch await call.result {
                                case .success: return "ok"
                                case .failure(let error): return error is CancellationError ? "cancelled" : "\(error)"
                                }
                            }
                        }
                        return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
                    }
                    let failures = outcomes.filter { $0.key != "ok" && $0.key != "cancelled" }
                    XCTAssertEqual(failures, [:], "\(name), burst\(cancelling ? " with cancellations" : "")")
                    XCTAssertEqual(outcomes["ok", default: 0] + outcomes["cancelled", default: 0], 300, name)
                    // One more call: answered while no thread is held by an idle connection (the
                    // wait for one is the gate's 2 s; an answer takes a few ms).
                    let start = Date()
                    _ = try await client.request(AttemptEndpoint(path: "/flaky?key=after"))
                    let waited = Date().timeIntervalSince(start)
                    XCTAssertLessThan(
                        waited, 1.5,
                        "\(name): the call after a burst\(cancelling ? " with cancellations" : "") waited \(waited) s; "
                            + "threads held by idle connections: \(gate.counts.withLock { $0.idleTimeouts })")
                }
            }
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }
}
