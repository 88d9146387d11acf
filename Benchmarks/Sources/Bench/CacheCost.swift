import EndpointKit
import EndpointKitAsyncHTTPClient
import BenchSupport
import Foundation

/// What the HTTP cache costs and saves, one call at a time against the loopback server: a fresh
/// hit, a 304 revalidation, and a miss (not storable, and stored), per client and store, as µs
/// per call and against the same client's round trip without a cache, measured in this run.
enum CacheCost {
    static func run(baseURL: URL, quick: Bool) async throws {
        let count = quick ? 400 : 2_000
        print("\nHTTP cache: µs per call, one call at a time (median of 3 runs of \(count) calls, hits \(count * 10));")
        print("ratio to the same client's network round trip without a cache (a small JSON GET)")
        print("  client                 store    round trip    fresh hit            304 revalidation      miss, not stored     miss, stored")
        for name in ["URLSessionClient", "AsyncHTTPClientClient"] {
            let plain = client(name, baseURL: baseURL, cache: nil)
            for _ in 0..<200 { _ = try await plain.request(RawBytes(path: "json")) }
            let roundTrip = try await microsecondsPerCall(count) { _ in _ = try await plain.request(RawBytes(path: "json")) }
            try await plain.shutdown()
            for storeName in ["memory", "disk"] {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-cache-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: directory) }
                let store: any HTTPCacheStore =
                    storeName == "memory" ? MemoryCacheStore(capacity: 64 << 20) : try DiskCacheStore(directory: directory, capacity: 64 << 20)
                let cache = HTTPCache(store: store)
                let cached = client(name, baseURL: baseURL, cache: cache)
                for _ in 0..<200 { _ = try await cached.request(RawBytes(path: "json")) }
                _ = try await cached.request(RawBytes(path: "cached-fresh"))
                let hit = try await microsecondsPerCall(count * 10) { _ in _ = try await cached.request(RawBytes(path: "cached-fresh")) }
                let revalidation = try await microsecondsPerCall(count) { _ in _ = try await cached.request(RawBytes(path: "cached-revalidate")) }
                let miss = try await microsecondsPerCall(count) { _ in _ = try await cached.request(RawBytes(path: "json")) }
                let stored = try await microsecondsPerCall(count) { index in _ = try await cached.request(RawBytes(path: "cached-new?n=\(index)")) }
                try await cached.shutdown()
                print(
                    "  " + name.padding(toLength: 23, withPad: " ", startingAt: 0) + storeName.padding(toLength: 7, withPad: " ", startingAt: 0)
                        + String(format: "%9.1f µs", roundTrip)
                        + String(format: "%9.2f µs (%.3fx)", hit, hit / roundTrip)
                        + String(format: "%9.1f µs (%.2fx)", revalidation, revalidation / roundTrip)
                        + String(format: "%9.1f µs (%+.1f)", miss, miss - roundTrip)
                        + String(format: "%9.1f µs (%+.1f)", stored, stored - roundTrip))
            }
        }
        print("  (miss columns: in brackets, µs added to the round trip; a stored miss also writes the entry)")
    }

    private static func client(_ name: String, baseURL: URL, cache: HTTPCache?) -> any Client {
        name == "URLSessionClient"
            ? URLSessionClient(baseURL: baseURL, cache: cache) : AsyncHTTPClientClient(baseURL: baseURL, cache: cache)
    }
}
