import AsyncHTTPClient
import EndpointKit
import EndpointKitAsyncHTTPClient
import BenchSupport
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests per second and latency percentiles of each client, at a fixed number of requests
/// in flight, against the in-process server; each cell measured for the same time in one run.
enum Latency {
    struct Cell {
        let requestsPerSecond: Double
        let p50: Double
        let p99: Double
    }

    /// One way of doing a GET of `path` and reading the whole body.
    struct Contender: Sendable {
        let name: String
        /// Whether it decodes the body as the small JSON book, so runs only against that body.
        var readsJSON = false
        let get: @Sendable (String) async throws -> Void
    }

    /// Each contender's cell for `path` at `concurrency`, measured over `seconds` in four rounds
    /// that alternate between the contenders, so that drift in the machine's speed hits every
    /// contender alike. The order is reversed in the two middle rounds: where a contender runs in
    /// a round moves its figures (up to 10 % for the second of two AsyncHTTPClient rows sharing
    /// one `HTTPClient`), and so each contender runs as often early as late. Each keeps the mean
    /// of its two middle rounds.
    static func alternating(_ contenders: [Contender], path: String, concurrency: Int, seconds: Double) async throws -> [Cell] {
        var rounds: [[Cell]] = Array(repeating: [], count: contenders.count)
        for round in 0..<4 {
            let order: [Int] = round == 0 || round == 3 ? Array(contenders.indices) : contenders.indices.reversed()
            for index in order {
                if round == 0 { _ = try await measure(contenders[index], path: path, concurrency: concurrency, seconds: min(seconds, 0.2)) }
                rounds[index].append(try await measure(contenders[index], path: path, concurrency: concurrency, seconds: seconds / 4))
            }
        }
        return rounds.map { cells in
            let middle = cells.sorted { $0.requestsPerSecond < $1.requestsPerSecond }[1...2]
            return Cell(
                requestsPerSecond: middle.map(\.requestsPerSecond).reduce(0, +) / 2, p50: middle.map(\.p50).reduce(0, +) / 2,
                p99: middle.map(\.p99).reduce(0, +) / 2)
        }
    }

    static func measure(_ contender: Contender, path: String, concurrency: Int, seconds: Double) async throws -> Cell {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        let samples = try await withThrowingTaskGroup(of: [UInt64].self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var latencies: [UInt64] = []
                    while DispatchTime.now().uptimeNanoseconds < deadline {
                        let start = DispatchTime.now().uptimeNanoseconds
                        try await contender.get(path)
                        latencies.append(DispatchTime.now().uptimeNanoseconds - start)
                    }
                    return latencies
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }.sorted()
        }
        func percentile(_ p: Double) -> Double {
            samples.isEmpty ? 0 : Double(samples[min(samples.count - 1, Int(Double(samples.count) * p))]) / 1e6
        }
        return Cell(requestsPerSecond: Double(samples.count) / seconds, p50: percentile(0.5), p99: percentile(0.99))
    }

    static func contenders(baseURL: URL, httpClient: HTTPClient, ahcClient: AsyncHTTPClientClient) -> [Contender] {
        let session = URLSession(configuration: .endpointKitDefault)
        let client = URLSessionClient(baseURL: baseURL)
        let delegated = DelegateSession()
        return [
            Contender(name: "raw URLSession") { path in
                let url = URL(string: path, relativeTo: baseURL) ?? baseURL
                let (data, _) = try await session.data(from: url)
                precondition(!data.isEmpty)
            },
            Contender(name: "raw URLSession, data delegate") { path in
                let data = try await delegated.data(from: URL(string: path, relativeTo: baseURL) ?? baseURL)
                precondition(!data.isEmpty)
            },
            // Foundation's own completion-handler call, awaited the way the completion row is:
            // what a completion-handler API costs before EndpointKit adds its queue.
            Contender(name: "raw URLSession, completion") { path in
                let url = URL(string: path, relativeTo: baseURL) ?? baseURL
                let data: Data = try await withCheckedThrowingContinuation { continuation in
                    session.dataTask(with: url) { data, _, error in
                        if let data { continuation.resume(returning: data) } else { continuation.resume(throwing: error ?? URLError(.unknown)) }
                    }.resume()
                }
                precondition(!data.isEmpty)
            },
            Contender(name: "URLSessionClient async") { path in
                let data = try await client.request(RawBytes(path: path))
                precondition(!data.isEmpty)
            },
            Contender(name: "URLSessionClient completion") { path in
                let data: Data = try await withCheckedThrowingContinuation { continuation in
                    client.request(RawBytes(path: path)) { continuation.resume(with: $0) }
                }
                precondition(!data.isEmpty)
            },
            Contender(name: "raw AsyncHTTPClient") { path in
                let response = try await httpClient.execute(
                    HTTPClientRequest(url: baseURL.absoluteString + "/" + path), timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 16 << 20)
                precondition(body.readableBytes > 0)
            },
            // The same, plus the Foundation response the Endpoint API hands to validation,
            // decoding and the observer: how much of the client's cost is that type alone.
            Contender(name: "raw AHC + HTTPURLResponse") { path in
                let address = baseURL.absoluteString + "/" + path
                let response = try await httpClient.execute(HTTPClientRequest(url: address), timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 16 << 20)
                let head = URL(string: address).flatMap { FoundationResponse.make(response.status, response.headers, url: $0) }
                precondition(body.readableBytes > 0 && head != nil)
            },
            Contender(name: "AsyncHTTPClientClient async") { path in
                let data = try await ahcClient.request(RawBytes(path: path))
                precondition(!data.isEmpty)
            },
            // A decoded GET, as callers make them: raw AsyncHTTPClient with a `JSONDecoder`
            // (no Foundation response), and the client's `Request` (`.get(_:as:)`), which reads
            // only the status of the head and so builds no Foundation response either.
            Contender(name: "raw AHC + JSONDecoder", readsJSON: true) { path in
                let response = try await httpClient.execute(
                    HTTPClientRequest(url: baseURL.absoluteString + "/" + path), timeout: .seconds(30))
                let book = try SmallBook.decoded(response.status, try await response.body.collect(upTo: 16 << 20))
                precondition(book.id > 0)
            },
            Contender(name: "AsyncHTTPClientClient .get", readsJSON: true) { path in
                let book = try await ahcClient.request(.get(path, as: SmallBook.self))
                precondition(book.id > 0)
            },
        ]
    }

    /// Bodies read as they arrive (the path of streams and of generated OpenAPI clients), for
    /// `hammer` and profilers.
    static func streamed(baseURL: URL, httpClient: HTTPClient, ahcClient: AsyncHTTPClientClient) -> [Contender] {
        let client = URLSessionClient(baseURL: baseURL)
        return [
            Contender(name: "raw AHC streamed") { path in
                let response = try await httpClient.execute(
                    HTTPClientRequest(url: baseURL.absoluteString + "/" + path), timeout: .seconds(30))
                var bytes = 0
                for try await buffer in response.body { bytes += buffer.readableBytes }
                precondition(bytes > 0)
            },
            Contender(name: "URLSessionClient stream") { path in
                var bytes = 0
                for try await chunk in try await client.stream(RawBytes(path: path)) { bytes += chunk.count }
                precondition(bytes > 0)
            },
            Contender(name: "AsyncHTTPClientClient stream") { path in
                var bytes = 0
                for try await chunk in try await ahcClient.stream(RawBytes(path: path)) { bytes += chunk.count }
                precondition(bytes > 0)
            },
        ]
    }

    /// AsyncHTTPClient's delegate API, which `AsyncHTTPClientClient` receives through, with its
    /// own body-collecting delegate and a Foundation response built: called from this module
    /// (unspecialised, as from EndpointKit's package), and through the future API (specialised
    /// inside AsyncHTTPClient). For `hammer`: a client's cost over the API it is built on.
    static func delegateAPI(baseURL: URL, httpClient: HTTPClient) -> [Contender] {
        [
            Contender(name: "raw AHC delegate API + HTTPURLResponse") { path in
                let request = try HTTPClient.Request(url: baseURL.absoluteString + "/" + path)
                let accumulator = ResponseAccumulator(request: request)
                let response = try await httpClient.execute(
                    request: request, delegate: accumulator, eventLoop: .indifferent, deadline: nil, logger: nil
                ).get()
                precondition(answered(response, url: request.url))
            },
            Contender(name: "raw AHC future API + HTTPURLResponse") { path in
                let request = try HTTPClient.Request(url: baseURL.absoluteString + "/" + path)
                let response = try await httpClient.execute(request: request, eventLoop: .indifferent, deadline: nil, logger: nil).get()
                precondition(answered(response, url: request.url))
            },
        ]
    }

    /// Whether `response` has a body, once its Foundation response is built.
    private static func answered(_ response: HTTPClient.Response, url: URL) -> Bool {
        FoundationResponse.make(response.status, response.headers, url: url) != nil && (response.body?.readableBytes ?? 0) > 0
    }

    /// `count` small GETs in a row with the contender whose name starts with `client`.
    /// What loop and hammer ask for: the small JSON, or `BENCH_PATH` (e.g. `bytes?count=1048576`).
    static var profiledPath: String { ProcessInfo.processInfo.environment["BENCH_PATH"] ?? "json" }

    /// The contender of loop and hammer named `name`, or else the first whose name starts with
    /// it: a table row, a stream, the raw delegate API or an OpenAPI row.
    static func named(_ name: String, baseURL: URL, httpClient: HTTPClient, ahcClient: AsyncHTTPClientClient) -> Contender? {
        let lists: [[Contender]] = [
            contenders(baseURL: baseURL, httpClient: httpClient, ahcClient: ahcClient),
            streamed(baseURL: baseURL, httpClient: httpClient, ahcClient: ahcClient),
            pipelineOverRaw(baseURL: baseURL, httpClient: httpClient), delegateAPI(baseURL: baseURL, httpClient: httpClient),
            sameFields(baseURL: baseURL, httpClient: httpClient), timeLimited(baseURL: baseURL, httpClient: httpClient),
            OpenAPIRows.contenders(baseURL: baseURL, httpClient: httpClient),
        ]
        // A whole name first: "EndpointKit, AsyncHTTPClientClient" also begins a timed row's.
        let all = lists.joined()
        return all.first(where: { $0.name.lowercased() == name.lowercased() })
            ?? all.first(where: { $0.name.lowercased().hasPrefix(name.lowercased()) })
    }

    static func loop(client name: String, baseURL: URL, count: Int) async throws {
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientClient.configuration)
        let ahcClient = AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient)
        guard let contender = named(name, baseURL: baseURL, httpClient: httpClient, ahcClient: ahcClient)
        else { return print("no client named \(name)") }
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<count { try await contender.get(profiledPath) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        print(String(format: "%@: %d requests, %.1f µs each", contender.name, count, seconds / Double(count) * 1e6))
        try await httpClient.shutdown()
    }

    static func hammer(client name: String, baseURL: URL, seconds: Double, concurrency: Int, serverInProcess: Bool) async throws {
        let httpClient = hammerHTTPClient()
        let ahcClient = AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient)
        guard let contender = named(name, baseURL: baseURL, httpClient: httpClient, ahcClient: ahcClient)
        else { return print("no client named \(name)") }
        let cpu0 = processCPUSeconds()
        let cell = try await measure(contender, path: profiledPath, concurrency: concurrency, seconds: seconds)
        let cpu1 = processCPUSeconds()
        print(String(format: "%@: %.0f req/s, %.1f µs CPU per request (%@)", contender.name, cell.requestsPerSecond, (cpu1 - cpu0) / (cell.requestsPerSecond * seconds) * 1e6,
            serverInProcess ? "server included" : "this process"))
        try await httpClient.shutdown()
    }

    static func run(baseURL: URL, seconds: Double) async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let ahcClient = AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient)
        // BENCH_ROWS=<parts of names, comma-separated>: only those rows (a ratio needs its
        // baseline among them).
        let only = ProcessInfo.processInfo.environment["BENCH_ROWS"]?.split(separator: ",")
        let contenders = contenders(baseURL: baseURL, httpClient: httpClient, ahcClient: ahcClient).filter { contender in
            only.map { $0.contains { contender.name.contains($0) } } ?? true
        }
        print("\nRequests per second and latency (ms), \(seconds) s per cell in 4 alternating rounds, the middle two in reverse order (mean of the middle two);")
        print("ratios against raw URLSession,")
        print("and for EndpointKit's AsyncHTTPClient rows against raw AsyncHTTPClient")
        print("  body      in flight  client                          req/s   ratio     p50     p99  (goal: URLSessionClient ≥ 0.95)")
        for (label, path) in [("200 B", "json"), ("1 MB", "bytes?count=1048576")] {
            for concurrency in [1, 16, 64] {
                let rows = contenders.filter { path == "json" || !$0.readsJSON }
                let cells = try await alternating(rows, path: path, concurrency: concurrency, seconds: seconds)
                // Each row's requests a second, by name: the baselines of the ratios.
                let rates = Dictionary(uniqueKeysWithValues: zip(rows.map(\.name), cells.map(\.requestsPerSecond)))
                for (index, contender) in rows.enumerated() {
                    let cell = cells[index]
                    func of(_ name: String) -> Double { cell.requestsPerSecond / max(rates[name] ?? 0, 1) }
                    let ratio = of(rows[0].name)
                    var comparison = contender.name.hasPrefix("URLSessionClient")
                        ? String(format: "  (%.2f of delegate baseline)", of("raw URLSession, data delegate")) : ""
                    if contender.name == "URLSessionClient completion" {
                        comparison += String(format: " (%.2f of raw completion)", of("raw URLSession, completion"))
                    }
                    if contender.name.hasPrefix("AsyncHTTPClientClient"), contender.readsJSON {
                        comparison = String(format: "  (%.2f of raw AHC + JSONDecoder)", of("raw AHC + JSONDecoder"))
                    } else if contender.name.hasPrefix("AsyncHTTPClientClient") {
                        let ofRaw = of("raw AsyncHTTPClient")
                        comparison = String(
                            format: "  (%.2f of raw AHC %@, %.2f of raw + response; %.1fx URLSessionClient)",
                            ofRaw, ofRaw >= 0.9 ? "✓" : "✗", of("raw AHC + HTTPURLResponse"), of("URLSessionClient async"))
                    }
                    let within = contender.name.hasPrefix("URLSessionClient") ? (ratio >= 0.95 ? " ✓" : " ✗") : ""
                    print(
                        "  " + label.padding(toLength: 10, withPad: " ", startingAt: 0)
                            + String(format: "%9d  ", concurrency)
                            + contender.name.padding(toLength: 28, withPad: " ", startingAt: 0)
                            + String(format: "%9.0f %7.2f%@ %7.2f %7.2f", cell.requestsPerSecond, ratio, within, cell.p50, cell.p99)
                            + comparison)
                }
            }
        }
        try await httpClient.shutdown()
    }
}
