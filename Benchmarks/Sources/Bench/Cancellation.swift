@_spi(Locking) import EndpointKit
import EndpointKitAsyncHTTPClient
import BenchSupport
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
            let done = Locked(false)
            let progress = urlSessionClient.request(RawBytes(path: "hang")) { _ in done.update { $0 = true } }
            return ({ progress.cancel() }, {
                while !done.value { try? await Task.sleep(nanoseconds: 100_000) }
            })
        })
        print(await measure("AsyncHTTPClientClient, Task.cancel()", rounds: rounds) {
            let task = Task { try await ahcClient.request(RawBytes(path: "hang")) }
            return ({ task.cancel() }, { _ = await task.result })
        })
        print("\nCancel during a 1 GiB download, from the progress handler at 256 MB (Task.cancel()), \(max(rounds / 5, 5)) rounds")
        print("  client                                  returned p50/p99   counted after   on disk − counted at cancel (min/max)")
        for (name, client) in [("URLSessionClient", urlSessionClient as any Client), ("AsyncHTTPClientClient", ahcClient)] {
            print(await midDownload(name, client: client, rounds: max(rounds / 5, 5)))
        }
        urlSessionClient.invalidate()
        try await ahcClient.shutdown()
    }

    /// Cancels fast 1 GiB downloads to a resumable file at 256 MB: how long until the call
    /// returns, how many bytes were still counted after the cancel (goal 0), and how the file
    /// left on disk compares with the bytes counted when the cancel came (goal 0: every counted
    /// byte kept, no other).
    static func midDownload(_ name: String, client: any Client, rounds: Int) async -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("EndpointKitBench-cancel.bin")
        let record = file.appendingPathExtension("resume")
        var returned: [Double] = []
        var lateCounted: Int64 = 0
        var onDisk: [Int64] = []
        for _ in 0..<rounds {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: record)
            let state = Locked((atCancel: Int64(-1), last: Int64(0), cancelledAt: UInt64(0)))
            let task = Locked<Task<URL, any Error>?>(nil)
            let endpoint = FileBytes(path: "bytes?count=\(1 << 30)", resumableFileURL: file)
            task.update {
                $0 = Task {
                    try await client.download(endpoint) { progress in
                        var cancel = false
                        state.update { state in
                            state.last = progress.completedBytes
                            if state.atCancel < 0, progress.completedBytes >= 256 << 20 {
                                (state.atCancel, state.cancelledAt, cancel) = (progress.completedBytes, DispatchTime.now().uptimeNanoseconds, true)
                            }
                        }
                        if cancel { task.value?.cancel() }
                    }
                }
            }
            _ = await task.value?.result
            let ended = DispatchTime.now().uptimeNanoseconds
            let (atCancel, last, cancelledAt) = state.value
            guard atCancel >= 0 else { continue }
            returned.append(Double(ended - cancelledAt) / 1e6)
            lateCounted = max(lateCounted, last - atCancel)
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
            onDisk.append(size - atCancel)
        }
        try? FileManager.default.removeItem(at: file)
        try? FileManager.default.removeItem(at: record)
        let sorted = returned.sorted()
        let p50 = sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        let p99 = sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        return "  " + name.padding(toLength: 38, withPad: " ", startingAt: 0)
            + String(format: "%8.2f %8.2f   %10lld B   %10lld / %lld B", p50, p99, lateCounted, onDisk.min() ?? 0, onDisk.max() ?? 0)
    }
}
