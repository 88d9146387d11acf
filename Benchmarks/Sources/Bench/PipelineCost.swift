@_spi(Transport) import EndpointKit
@_spi(Transport) import BenchSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cost of EndpointKit's own steps of a call, with no I/O: a pipeline as a client makes it
/// (a base URL, the default overload policy) over a transport that answers every request at
/// once with nginx's answer to the small JSON. What is measured is the pipeline's work, without
/// the noise of a network or a server (`perf record` it for a clean profile of that work).
enum PipelineCost {
    /// CPU time a call with `width` tasks at once, each call suspending once in its transport
    /// (as a real one waits for its answer, its task then resumed on any thread, with the other
    /// tasks' work between), against the same suspension without EndpointKit. What the steps
    /// cost where a call's state has gone cold: more than one after another.
    static func suspending(count: Int, width: Int) async throws {
        guard let baseURL = URL(string: "http://127.0.0.1:8089"), let url = URL(string: "json", relativeTo: baseURL) else { return }
        let body = Data(repeating: 0x20, count: 176)
        var transport = InstantTransport.smallJSON(from: url)
        transport.yields = true
        let pipeline = Pipeline(
            requestAdapter: BaseRequestAdapter(baseURL: baseURL), responseObserver: nil, retryPolicy: .none, timeout: nil,
            maximumBodySize: 100 << 20, transport: transport)
        func measure(_ name: String, _ call: @escaping @Sendable () async throws -> Void) async throws {
            let cpu0 = processCPUSeconds()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<width { group.addTask { for _ in 0..<(count / width) { try await call() } } }
                try await group.waitForAll()
            }
            print(String(format: "  %@: %.2f µs CPU a call", name, (processCPUSeconds() - cpu0) / Double(count) * 1e6))
        }
        for _ in 0..<3 {
            try await measure("bare yield") {
                await Task.yield()
                precondition(!body.isEmpty)
            }
            try await measure("pipeline") { _ = try await pipeline.perform(RequestCall(RawBytes(path: "json"))) }
        }
    }

    /// `count` calls in a row with each transport, three times; prints the median time a call.
    static func run(count: Int) async throws {
        guard let baseURL = URL(string: "http://127.0.0.1:8089"), let url = URL(string: "json", relativeTo: baseURL) else { return }
        let fields = [
            ("Server", "nginx/1.22.1"), ("Date", "Thu, 26 Nov 2026 10:05:11 GMT"), ("Content-Type", "application/json"),
            ("Content-Length", "176"), ("Last-Modified", "Thu, 26 Nov 2026 09:49:51 GMT"), ("Connection", "keep-alive"),
            ("ETag", "\"6b0800bf-b0\""), ("Accept-Ranges", "bytes"),
        ].map { (name: $0.0, value: $0.1) }
        let body = Data(repeating: 0x20, count: 176)
        let once = ResponseHead.response(url: url, statusCode: 200, version: "HTTP/1.1", fields: fields)
        let transports = [
            ("Foundation response made once", InstantTransport { ReceivedResponse(response: once, body: body, fileURL: nil) }),
            // As AsyncHTTPClientClient's calls do.
            ("Foundation response built each call, 8 fields", InstantTransport {
                ReceivedResponse(head: ResponseHead(url: url, statusCode: 200, version: "HTTP/1.1", fields: fields), body: body, fileURL: nil)
            }),
        ]
        print("\nEndpointKit's own steps of a small GET, with a transport that answers at once (median of 3 runs of \(count) calls;")
        print("then CPU time a call with the calls spread over 2 and 16 tasks at once, for what contention adds):")
        // PIPELINE_ONCE=1: only the first transport (a clean profile of EndpointKit's own steps).
        let only = ProcessInfo.processInfo.environment["PIPELINE_ONCE"] == "1" ? 1 : transports.count
        for (name, transport) in transports.prefix(only) {
            let pipeline = Pipeline(
                requestAdapter: BaseRequestAdapter(baseURL: baseURL), responseObserver: nil, retryPolicy: .none, timeout: nil,
                maximumBodySize: 100 << 20, transport: transport)
            let micros = try await microsecondsPerCall(count) { _ in _ = try await pipeline.perform(RequestCall(RawBytes(path: "json"))) }
            print(String(format: "  %@: %.2f µs a call", name, micros))
            for width in [2, 16] {
                let cpu0 = processCPUSeconds()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<width {
                        group.addTask { for _ in 0..<(count / width) { _ = try await pipeline.perform(RequestCall(RawBytes(path: "json"))) } }
                    }
                    try await group.waitForAll()
                }
                let cpu1 = processCPUSeconds()
                print(String(format: "    %d at once: %.2f µs CPU a call", width, (cpu1 - cpu0) / Double(count) * 1e6))
            }
        }
    }
}
