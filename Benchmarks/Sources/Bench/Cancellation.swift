import EndpointKit
import EndpointKitAsyncHTTPClient
import Foundation

/// How fast a cancelled call ends: from `cancel()` to the call returning, and to the server
/// seeing the connection close. The request waits on `/hang`, which never answers.
enum Cancellation {
    static func measure(
        _ name: String, rounds: Int, start: @Sendable @escaping () -> (cancel: @Sendable () -> Void, done: @Sendable () async -> Void)
    ) async -> String {
        var returned: [Double] = []
        var closed: [Double] = []
        for _ in 0..<rounds {
            let seen = BenchServer.closes.value.count
            let call = start()
            try? await Task.sleep(nanoseconds: 20_000_000)
            let cancelled = DispatchTime.now().uptimeNanoseconds
            call.cancel()
            await call.done()
            returned.append(Double(DispatchTime.now().uptimeNanoseconds - cancelled) / 1e6)
            let deadline = DispatchTime.now().uptimeNanoseconds + 2_000_000_000
            while BenchServer.closes.value.count == seen, DispatchTime.now().uptimeNanoseconds < deadline {
                try? await Task.sleep(nanoseconds: 200_000)
            }
            if let close = BenchServer.closes.value.last, BenchServer.closes.value.count > seen {
                closed.append(Double(close > cancelled ? close - cancelled : 0) / 1e6)
            }
        }
        func percentile(_ values: [Double], _ p: Double) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        return "  " + name.padding(toLength: 38, withPad: " ", startingAt: 0)
            + String(format: "%8.2f %8.2f   %8.2f %8.2f   %d/%d", percentile(returned, 0.5), percentile(returned, 0.99),
                percentile(closed, 0.5), percentile(closed, 0.99), closed.count, rounds)
    }

    static func run(baseURL: URL, rounds: Int) async throws {
        let urlSessionClient = URLSessionClient(baseURL: baseURL)
        let ahcClient = AsyncHTTPClientClient(baseURL: baseURL)
        print("\nCancellation latency (ms): cancel() → the call returns, and → the server sees the close")
        print("  client                                  returned p50/p99    closed p50/p99   closes seen")
        print(await measure("URLSessionClient, Task.cancel()", rounds: rounds) {
            let task = Task { try await urlSessionClient.request(RawBytes(path: "hang")) }
            return ({ task.cancel() }, { _ = await task.result })
        })
        print(await measure("URLSessionClient, Progress.cancel()", rounds: rounds) {
            let done = Box(false)
            let progress = urlSessionClient.request(RawBytes(path: "hang")) { _ in done.update { $0 = true } }
            return ({ progress.cancel() }, {
                while !done.value { try? await Task.sleep(nanoseconds: 100_000) }
            })
        })
        print(await measure("AsyncHTTPClientClient, Task.cancel()", rounds: rounds) {
            let task = Task { try await ahcClient.request(RawBytes(path: "hang")) }
            return ({ task.cancel() }, { _ = await task.result })
        })
        urlSessionClient.invalidate()
        try await ahcClient.shutdown()
    }
}
