import AsyncHTTPClient
import EndpointKitAsyncHTTPClient
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Heap allocations per small GET for each client, counted by ordo-one's malloc-interposer
/// preloaded into a child process (so the server in this process is not counted). The
/// difference from the raw client below it is what EndpointKit's own path allocates.
enum Allocations {
    static let requests = 2_000

    static func run(baseURL: URL) throws {
        print("\nHeap allocations per small GET (\(requests) sequential requests, each client in its own process)")
        guard let library = try interposer() else {
            return print("  skipped: could not build malloc-interposer's library")
        }
        print("  client                          mallocs/request   KB/request   vs raw   vs raw with the same response type")
        var counts: [String: Double] = [:]
        let rows: [(name: String, raw: String?, same: String?)] = [
            ("raw URLSession", nil, nil),
            ("raw URLSession, data delegate", nil, nil),
            ("raw URLSession, completion", nil, nil),
            ("URLSessionClient async", "raw URLSession", "raw URLSession, data delegate"),
            ("URLSessionClient completion", "raw URLSession, completion", "raw URLSession, data delegate"),
            ("raw AsyncHTTPClient", nil, nil),
            ("raw AHC + HTTPURLResponse", nil, nil),
            ("AsyncHTTPClientClient async", "raw AsyncHTTPClient", "raw AHC + HTTPURLResponse"),
            // Decoded, with no Foundation response on either side (see `Latency.contenders`).
            ("raw AHC + JSONDecoder", nil, nil),
            ("AsyncHTTPClientClient .get", "raw AHC + JSONDecoder", nil),
        ]
        for row in rows {
            guard let (count, bytes) = try measure(row.name, library: library, baseURL: baseURL) else {
                print("  " + row.name.padding(toLength: 30, withPad: " ", startingAt: 0) + "  failed")
                continue
            }
            counts[row.name] = count
            func extra(over baseline: String?) -> String {
                guard let base = baseline.flatMap({ counts[$0] }) else { return "" }
                return String(format: "   %+4.0f (%.2fx)", count - base, count / max(base, 1))
            }
            print("  " + row.name.padding(toLength: 30, withPad: " ", startingAt: 0)
                + String(format: "%16.0f %12.1f", count, bytes / 1024) + extra(over: row.raw) + extra(over: row.same))
        }
    }

    /// Allocations per request of the contender `name`, counted in a child; `nil` if that failed.
    static func count(_ name: String, baseURL: URL) throws -> (Double, Double)? {
        guard let library = try interposer() else { return nil }
        return try measure(name, library: library, baseURL: baseURL)
    }

    /// The interposer's shared library next to this executable, built if missing.
    private static func interposer() throws -> URL? {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let library = executable.deletingLastPathComponent().appendingPathComponent("libMallocInterposerSwift.so")
        if FileManager.default.fileExists(atPath: library.path) { return library }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swift", "build", "-c", "release", "--package-path", package.path, "--product", "MallocInterposerSwift"]
        build.standardOutput = FileHandle.nullDevice
        try build.run()
        build.waitUntilExit()
        return FileManager.default.fileExists(atPath: library.path) ? library : nil
    }

    private static func measure(_ name: String, library: URL, baseURL: URL) throws -> (Double, Double)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["alloc-child", name, baseURL.absoluteString, "\(requests)"]
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = library.path
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("allocations ") }) else { return nil }
        let fields = line.split(separator: " ").compactMap { Double($0) }
        return fields.count == 2 ? (fields[0], fields[1]) : nil
    }

    /// In the child: `count` GETs with the contender `name`, counted after a warm-up.
    static func child(name: String, baseURL: URL, count: Int) async throws {
        typealias Toggle = @convention(c) () -> Void
        typealias Stats = @convention(c) (
            UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>,
            UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>
        ) -> Void
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
        }
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientClient.configuration)
        let ahcClient = AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient)
        let contenders = Latency.contenders(baseURL: baseURL, httpClient: httpClient, ahcClient: ahcClient)
            + MonitorCost.contenders(baseURL: baseURL, httpClient: httpClient)
            + Latency.streamed(baseURL: baseURL, httpClient: httpClient, ahcClient: ahcClient)
            + OpenAPIRows.contenders(baseURL: baseURL, httpClient: httpClient)
        guard let contender = contenders.first(where: { $0.name == name })
        else { return print("no client named \(name)") }
        for _ in 0..<200 { try await contender.get("json") }
        // Without the interposer (under heaptrack, say, to see where the allocations are made)
        // the requests are made and nothing is counted.
        let stats = symbol("malloc_interposer_get_stats", as: Stats.self)
        let disable = symbol("malloc_interposer_disable", as: Toggle.self)
        symbol("malloc_interposer_reset", as: Toggle.self)?()
        symbol("malloc_interposer_enable", as: Toggle.self)?()
        for _ in 0..<count { try await contender.get("json") }
        disable?()
        if let stats {
            var (mallocs, bytes, small, large, frees, freed) = (Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0))
            stats(&mallocs, &bytes, &small, &large, &frees, &freed)
            print("allocations \(Double(mallocs) / Double(count)) \(Double(bytes) / Double(count))")
        } else {
            print("malloc-interposer is not preloaded: \(count) requests made, none counted")
        }
        try await httpClient.shutdown()
    }
}
