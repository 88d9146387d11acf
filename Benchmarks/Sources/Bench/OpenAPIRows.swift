import AsyncHTTPClient
import BenchAPI
import EndpointKit
import EndpointKitAsyncHTTPClient
import EndpointKitOpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIAsyncHTTPClient
import OpenAPIURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Bench openapi`: one generated client (Sources/BenchAPI) on each transport, fetching the small
/// JSON; EndpointKit's transport against the official one over the same engine.
enum OpenAPIRows {
    /// The generated client fetching the small JSON on each transport (also for `hammer`).
    static func contenders(baseURL: URL, httpClient: HTTPClient) -> [Latency.Contender] {
        let session = URLSession(configuration: .endpointKitDefault)
        let clients: [(String, BenchAPI.Client)] = [
            ("swift-openapi-urlsession", BenchAPI.Client(serverURL: baseURL, transport: URLSessionTransport(configuration: .init(session: session)))),
            ("EndpointKit, URLSessionClient", BenchAPI.Client(serverURL: baseURL, transport: EndpointKitTransport(client: URLSessionClient(baseURL: baseURL)))),
            ("swift-openapi-async-http-client", BenchAPI.Client(serverURL: baseURL, transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient)))),
            ("EndpointKit, AsyncHTTPClientClient", BenchAPI.Client(serverURL: baseURL, transport: EndpointKitTransport(client: AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient)))),
        ]
        let transports: [(String, any ClientTransport)] = [
            ("swift-openapi-async-http-client", AsyncHTTPClientTransport(configuration: .init(client: httpClient))),
            ("EndpointKit, AsyncHTTPClientClient", EndpointKitTransport(client: AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient))),
        ]
        // The transport alone, without the generated code around it; then with the body decoded
        // as the generated code decodes it (collected up to `.max`, then JSONDecoder).
        let bare = transports.map { name, transport in
            Latency.Contender(name: "transport only: " + name) { path in
                let (status, bytes) = try await fetch(path, through: transport, baseURL: baseURL)
                precondition(status == .ok && !bytes.isEmpty)
            }
        }
        let decoded = transports.map { name, transport in
            Latency.Contender(name: "transport + decode: " + name) { path in
                let (status, bytes) = try await fetch(path, through: transport, baseURL: baseURL)
                let book = try JSONDecoder().decode(Operations.GetJSON.Output.Ok.Body.JsonPayload.self, from: bytes)
                precondition(status == .ok && book.id == 1)
            }
        }
        return clients.map { name, client in
            Latency.Contender(name: name) { _ in
                let book = try await client.getJSON().ok.body.json
                precondition(book.id == 1)
            }
        } + bare + decoded
    }

    /// `GET /path` through `transport` alone, its body collected as the generated code does.
    private static func fetch(_ path: String, through transport: any ClientTransport, baseURL: URL) async throws -> (HTTPResponse.Status, Data) {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/" + path, headerFields: [.accept: "application/json"])
        let (response, body) = try await transport.send(request, body: nil, baseURL: baseURL, operationID: "getJSON")
        guard let body else { return (response.status, Data()) }
        return (response.status, try await Data(collecting: body, upTo: .max))
    }

    static func run(baseURL: URL, seconds: Double) async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        // OPENAPI_ROWS=<part of a name>: only those transports (for a profiler).
        let only = ProcessInfo.processInfo.environment["OPENAPI_ROWS"]
        let contenders = contenders(baseURL: baseURL, httpClient: httpClient).filter { contender in
            !contender.name.hasPrefix("transport ") && only.map { contender.name.contains($0) } ?? true
        }
        print("\nA generated OpenAPI client on each transport: requests per second, small JSON, \(seconds) s per cell in 4 alternating rounds, the middle two in reverse order (mean of the middle two)")
        print("  in flight  transport                              req/s     p50     p99   vs the official transport on the same engine")
        for concurrency in [1, 16, 64] {
            let cells = try await Latency.alternating(contenders, path: "json", concurrency: concurrency, seconds: seconds)
            var official = 0.0
            for (index, contender) in contenders.enumerated() {
                let cell = cells[index]
                let versus: String
                if contender.name.hasPrefix("EndpointKit") {
                    let ratio = cell.requestsPerSecond / max(official, 1)
                    versus = String(format: "%.2f %@", ratio, ratio >= 0.95 ? "✓" : "✗ (goal ≥ 0.95)")
                } else {
                    official = cell.requestsPerSecond
                    versus = ""
                }
                print(
                    String(format: "  %9d  ", concurrency) + contender.name.padding(toLength: 36, withPad: " ", startingAt: 0)
                        + String(format: "%9.0f %7.2f %7.2f   ", cell.requestsPerSecond, cell.p50, cell.p99) + versus)
            }
        }
        try await httpClient.shutdown()
    }
}
