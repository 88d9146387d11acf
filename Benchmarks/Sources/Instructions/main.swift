import AsyncHTTPClient
import BenchAPI
@_spi(Transport) import BenchSupport
@_spi(Transport) import EndpointKit
import EndpointKitAsyncHTTPClient
import EndpointKitOpenAPI
import Foundation
import NIOHTTP1
import OpenAPIAsyncHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Instructions CONTENDER COUNT URL: 200 small GETs of URL/json to warm up, then COUNT more (from
// IN_FLIGHT tasks side by side, 1 unless set), with one contender: `raw` (AsyncHTTPClient's
// async API; `raw-fields` sending the two header fields the client adds), `raw-delegate` (its
// delegate API), each making the Foundation response an Endpoint is given, or `client`
// (AsyncHTTPClientClient); or the small book decoded, by raw AsyncHTTPClient with a
// `JSONDecoder` and no Foundation response (`raw-decoded`) or by AsyncHTTPClientClient's
// `.get(_:as:)` (`client-decoded`); or the generated client of Sources/BenchAPI on
// swift-openapi-async-http-client's transport (`openapi-official`) or on EndpointKit's over
// AsyncHTTPClientClient (`openapi-client`); or `pipeline`: EndpointKit's own steps of the call,
// over a transport that answers at once (no I/O); with DEFAULT_FIELDS set, its base adapter adds
// two header fields to each request (`Authorization` and `X-Client`), as a service's often does.
// All share AsyncHTTPClientClient's HTTPClient configuration. Scripts/bench-instructions.sh runs
// it under callgrind twice per contender, so that the instructions of one request are the
// difference of two runs: start-up and warm-up cancel out, and the count is the same from run
// to run whatever else the machine does (a timed benchmark on a shared host moves by 10-30 %).
// The main thread only waits: Valgrind 3.19 crashes when an async main starts its first thread.

enum Instructions {
    static func run(_ contender: String, count: Int, baseURL: URL) async throws {
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientClient.configuration)
        let client = AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient)
        let address = baseURL.absoluteString + "/json"
        let call: @Sendable () async throws -> Void
        switch contender {
        case "raw":
            call = {
                let response = try await httpClient.execute(HTTPClientRequest(url: address), timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 16 << 20)
                let head = URL(string: address).flatMap { FoundationResponse.make(response.status, response.headers, url: $0) }
                precondition(body.readableBytes > 0 && head != nil)
            }
        case "raw-fields":
            call = {
                let answered = try await SameFields.get(address, with: httpClient)
                precondition(answered)
            }
        case "raw-delegate":
            call = {
                let request = try HTTPClient.Request(url: address)
                let response = try await httpClient.execute(
                    request: request, delegate: ResponseAccumulator(request: request), eventLoop: .indifferent, deadline: nil,
                    logger: nil
                ).get()
                let head = URL(string: address).flatMap { FoundationResponse.make(response.status, response.headers, url: $0) }
                precondition((response.body?.readableBytes ?? 0) > 0 && head != nil)
            }
        case "raw-future":
            call = {
                let request = try HTTPClient.Request(url: address)
                let response = try await httpClient.execute(request: request, eventLoop: .indifferent, deadline: nil, logger: nil).get()
                let head = URL(string: address).flatMap { FoundationResponse.make(response.status, response.headers, url: $0) }
                precondition((response.body?.readableBytes ?? 0) > 0 && head != nil)
            }
        case "pipeline":
            let pipeline = Pipeline(
                requestAdapter: BaseRequestAdapter(
                    baseURL: baseURL,
                    headers: ProcessInfo.processInfo.environment["DEFAULT_FIELDS"] == nil ? [:] : ["Authorization": "Bearer abc", "X-Client": "bench"]),
                responseObserver: nil, retryPolicy: .none, timeout: nil,
                maximumBodySize: 100 << 20, transport: InstantTransport.smallJSON(from: baseURL.appendingPathComponent("json")))
            call = {
                let body = try await pipeline.perform(RequestCall(RawBytes(path: "json")))
                precondition(!body.isEmpty)
            }
        case "raw-decoded":
            call = {
                let response = try await httpClient.execute(HTTPClientRequest(url: address), timeout: .seconds(30))
                let book = try SmallBook.decoded(response.status, try await response.body.collect(upTo: 16 << 20))
                precondition(book.id > 0)
            }
        case "client-decoded":
            call = {
                let book = try await client.request(.get("json", as: SmallBook.self))
                precondition(book.id > 0)
            }
        case "openapi-official", "openapi-client":
            let generated = BenchAPI.Client(
                serverURL: baseURL,
                transport: contender == "openapi-client"
                    ? EndpointKitTransport(client: client) : AsyncHTTPClientTransport(configuration: .init(client: httpClient)))
            call = {
                let book = try await generated.getJSON().ok.body.json
                precondition(book.id == 1)
            }
        default:
            call = {
                let body = try await client.request(RawBytes(path: "json"))
                precondition(!body.isEmpty)
            }
        }
        for _ in 0..<200 { try await call() }
        // IN_FLIGHT=N: the calls from N tasks side by side, as a server makes them.
        let inFlight = max(1, ProcessInfo.processInfo.environment["IN_FLIGHT"].flatMap(Int.init) ?? 1)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<inFlight {
                group.addTask {
                    for _ in stride(from: task, to: count, by: inFlight) { try await call() }
                }
            }
            try await group.waitForAll()
        }
        try await client.shutdown()
        try await httpClient.shutdown()
    }
}

let arguments = CommandLine.arguments
let contenders = [
    "raw", "raw-fields", "raw-delegate", "raw-future", "client", "raw-decoded", "client-decoded", "pipeline", "openapi-official", "openapi-client",
]
guard arguments.count == 4, contenders.contains(arguments[1]), let count = Int(arguments[2]),
    let baseURL = URL(string: arguments[3])
else {
    print("usage: Instructions \(contenders.joined(separator: "|")) COUNT URL")
    exit(2)
}
let finished = DispatchSemaphore(value: 0)
Task.detached {
    do {
        try await Instructions.run(arguments[1], count: count, baseURL: baseURL)
    } catch {
        print("failed: \(error)")
        exit(1)
    }
    finished.signal()
}
finished.wait()
