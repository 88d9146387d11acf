import AsyncHTTPClient
import EndpointKit
import EndpointKitAsyncHTTPClient
import BenchSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A burst of GETs started at once, as a service fans out: how long the whole burst takes,
/// how many calls failed, and how long the next single call takes afterwards. With
/// `cancelling`, about 2 in 3 calls are cancelled at a random moment in the first 50 ms.
enum Burst {
    struct Outcome {
        let seconds: Double
        let failed: Int
        let cancelled: Int
        let nextCall: Double
        /// The longest call that succeeded or failed, and the longest that was cancelled (s).
        let slowestAnswered: Double
        let slowestCancelled: Double
    }

    static func run(_ client: any Client, path: String, count: Int, cancelling: Bool) async -> Outcome {
        let start = DispatchTime.now().uptimeNanoseconds
        let (failed, cancelled, slowestAnswered, slowestCancelled) = await withTaskGroup(of: (Bool, Bool, Double).self) { group in
            for index in 0..<count {
                let call = Task { try await client.request(RawBytes(path: path)) }
                let cancels = cancelling && index % 3 != 0
                group.addTask {
                    if cancels {
                        try? await Task.sleep(nanoseconds: UInt64.random(in: 0...50_000_000))
                        call.cancel()
                    }
                    let result = await call.result
                    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    switch result {
                    case .success: return (false, false, seconds)
                    case .failure(let error): return error is CancellationError ? (false, true, seconds) : (true, false, seconds)
                    }
                }
            }
            return await group.reduce(into: (0, 0, 0.0, 0.0)) { sums, outcome in
                if outcome.0 { sums.0 += 1 }
                if outcome.1 { sums.1 += 1; sums.3 = max(sums.3, outcome.2) } else { sums.2 = max(sums.2, outcome.2) }
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let next = DispatchTime.now().uptimeNanoseconds
        _ = try? await client.request(RawBytes(path: path))
        return Outcome(
            seconds: seconds, failed: failed, cancelled: cancelled,
            nextCall: Double(DispatchTime.now().uptimeNanoseconds - next) / 1e9,
            slowestAnswered: slowestAnswered, slowestCancelled: slowestCancelled)
    }

    /// `bench burst COUNT --server URL`: both clients, with and without cancellations.
    static func table(baseURL: URL, path: String, count: Int) async throws {
        print("\nBurst of \(count) GETs of \(path) at once against \(baseURL)")
        print("  client                      cancelled   seconds   failed   next call (s)   slowest answered / cancelled (s)")
        for cancelling in [false, true] {
            var configuration = AsyncHTTPClientClient.configuration
            if let limit = ProcessInfo.processInfo.environment["BURST_CONNECTIONS"].flatMap(Int.init) {
                configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = limit
            }
            let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            let ahc = AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient)
            let clients: [(String, any Client)] = [("URLSessionClient", URLSessionClient(baseURL: baseURL)), ("AsyncHTTPClientClient", ahc)]
            for (name, client) in clients {
                let outcome = await run(client, path: path, count: count, cancelling: cancelling)
                print("  " + name.padding(toLength: 26, withPad: " ", startingAt: 0)
                    + String(format: "%10d %9.2f %8d %15.3f %12.3f / %.3f", outcome.cancelled, outcome.seconds, outcome.failed, outcome.nextCall, outcome.slowestAnswered, outcome.slowestCancelled))
            }
            try await httpClient.shutdown()
        }
    }
}
