import EndpointKit
import EndpointKitAsyncHTTPClient
import EndpointKitOpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import XCTest

/// A client generated from `openapi.yaml` (by the generator's build plugin), on
/// ``EndpointKitTransport`` over each EndpointKit client, against the in-process test server:
/// each feature asserted by what reached the server.
final class GeneratedClientTests: XCTestCase {
    typealias MakeClient = @Sendable (URL, [any CallMonitor]) -> any EndpointKit.Client

    /// Both clients, each adding a header to every request (so the adapters are seen to run)
    /// and retrying fast.
    static let clients: [(String, MakeClient)] = [
        ("URLSessionClient", { url, monitors in
            URLSessionClient(
                requestAdapter: BaseRequestAdapter(baseURL: url, headers: ["X-Adapted": "yes"]), monitors: monitors,
                retryPolicy: .fast, timeout: 5)
        }),
        ("AsyncHTTPClientClient", { url, monitors in
            AsyncHTTPClientClient(
                requestAdapter: BaseRequestAdapter(baseURL: url, headers: ["X-Adapted": "yes"]), monitors: monitors,
                retryPolicy: .fast, timeout: 5)
        }),
    ]

    /// Runs `body` with a generated client for each EndpointKit client, against a fresh server.
    func withEachClient(
        monitors: [any CallMonitor] = [],
        _ body: (String, Client, TestServer, FaultRoutes) async throws -> Void
    ) async throws {
        try await withGeneratedClients(over: Self.clients.map { name, make in (name, { url, _ in make(url, monitors) }) }, body)
    }

    func testPathQueryAndHeaderParametersAndTheAdaptersReachTheServer() async throws {
        try await withEachClient { name, client, server, _ in
            let book = try await client.getBook(path: .init(id: 1)).ok.body.json
            XCTAssertEqual(book.title, "Dune", name)
            let echo = try await client.echo(query: .init(q: "a b&c"), headers: .init(xTrace: "trace-1")).ok.body.json
            XCTAssertEqual(echo.path, "/echo", name)
            XCTAssertEqual(echo.query, "q=a%20b%26c", name)
            XCTAssertEqual(echo.headers.additionalProperties["x-trace"], "trace-1", name)
            XCTAssertEqual(echo.headers.additionalProperties["x-adapted"], "yes", "\(name): the client's adapters ran")
            XCTAssertEqual(server.requests.map(\.path), ["/books/1", "/echo"], name)
        }
    }

    func testABinaryBodyIsSentWhole() async throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try await withEachClient { name, client, server, _ in
            let echo = try await client.echoBody(body: .binary(HTTPBody(bytes))).ok.body.json
            XCTAssertEqual(echo.bodyLength, bytes.count, name)
            XCTAssertEqual(server.requests.last?.body, Data(bytes), name)
            XCTAssertEqual(server.requests.last?.header("Content-Type"), "application/octet-stream", name)
        }
    }

    /// Progress of a generated call: the body sent, then each chunk read, with the total.
    func testUploadAndDownloadProgressOfAGeneratedCall() async throws {
        let bytes = [UInt8](repeating: 7, count: 50_000)
        try await withEachClient { name, client, _, _ in
            let reports = Guarded<[TransferProgress]>([])
            let read = try await OperationProgress.reporting({ report in reports.withLock { $0.append(report) } }) {
                _ = try await client.echoBody(body: .binary(HTTPBody(bytes))).ok.body.json
                return try await Data(collecting: client.bytes(query: .init(count: 1_000_000)).ok.body.binary, upTo: 2 << 20)
            }
            XCTAssertEqual(read.count, 1_000_000, name)
            let uploads = reports.withLock { $0 }.filter { $0.direction == .upload }
            XCTAssertEqual(uploads.last?.completedBytes, 50_000, name)
            let downloads = reports.withLock { $0 }.filter { $0.direction == .download && $0.totalBytes == 1_000_000 }
            XCTAssertGreaterThan(downloads.count, 1, "\(name): one report per chunk read")
            XCTAssertEqual(downloads.last?.completedBytes, 1_000_000, name)
            XCTAssertEqual(downloads.map(\.completedBytes), downloads.map(\.completedBytes).sorted(), name)
        }
        // Outside `reporting`, nothing is counted.
        try await withEachClient { name, client, _, _ in
            let body = try await client.bytes(query: .init(count: 10)).ok.body.binary
            let data = try await Data(collecting: body, upTo: 100)
            XCTAssertEqual(data.count, 10, name)
        }
    }

    /// With a cache on the client, a generated `GET` is answered from it by HTTP's rules, and
    /// a generated write outdates it.
    func testGeneratedGETsGoThroughTheClientsCache() async throws {
        let clients: [(String, @Sendable (URL) -> any EndpointKit.Client)] = [
            ("URLSessionClient", { @Sendable url in URLSessionClient(baseURL: url, cache: HTTPCache()) }),
            ("AsyncHTTPClientClient", { @Sendable url in AsyncHTTPClientClient(baseURL: url, cache: HTTPCache()) }),
        ]
        for (name, make) in clients {
            let faults = FaultRoutes()
            let server = try await TestServer.start(faults.handler)
            let endpointKit = make(server.baseURL)
            let client = Client(serverURL: server.baseURL, transport: EndpointKitTransport(client: endpointKit))
            let query = Operations.GetCached.Input.Query(key: "openapi", cc: "max-age=60")
            let first = try await client.getCached(query: query).ok.body.json
            let second = try await client.getCached(query: query).ok.body.json
            XCTAssertEqual(second.count, first.count, "\(name): the second GET came from the cache")
            XCTAssertEqual(server.requests.count, 1, name)
            _ = try await client.writeCached(query: .init(key: "openapi", cc: "max-age=60"))
            let third = try await client.getCached(query: query).ok.body.json
            XCTAssertEqual(third.version, 2, "\(name): the write outdated the stored answer")
            XCTAssertEqual(server.requests.count, 3, name)
            try await endpointKit.shutdown()
            await server.shutdown()
        }
    }

    func testDocumentedAndUndocumentedStatusesAreAnswersNotErrors() async throws {
        try await withEachClient { name, client, _, _ in
            guard case .notFound = try await client.getBook(path: .init(id: 2)) else { return XCTFail("\(name): 404") }
            guard case .undocumented(statusCode: 418, _) = try await client.status(query: .init(code: 418)) else {
                return XCTFail("\(name): 418")
            }
        }
    }

    func testFailedAttemptsAreRetriedThroughTheClientsPolicy() async throws {
        try await withEachClient { name, client, _, faults in
            let attempt = try await client.flaky(query: .init(key: "openapi", fail: 2)).ok.body.json
            XCTAssertEqual(attempt.attempt, 3, name)
            XCTAssertEqual(faults.count("openapi"), 3, name)
            // A status the policy does not retry is the documented answer, at once.
            guard case .serviceUnavailable = try await client.flaky(query: .init(key: "down", fail: 100, status: 503)) else {
                return XCTFail("\(name): 503 after the retries")
            }
            XCTAssertEqual(faults.count("down"), 3, "\(name): 503 is retried, then handed over")
        }
    }

    /// A request body goes out as the generated code produces it (with the AsyncHTTPClient-backed
    /// client: the server has the first chunk before the second is made; URLSessionClient reads
    /// it first), and every byte arrives.
    func testARequestBodyIsSentAsItIsProduced() async throws {
        let first = [UInt8](repeating: 1, count: 10_000), second = [UInt8](repeating: 2, count: 5_000)
        try await withEachClient { name, client, server, _ in
            let before = server.log.withLock { $0.bodyBytesArrived }
            let arrivedEarly = Guarded<Bool?>(nil)
            let (chunks, continuation) = AsyncStream.makeStream(of: ArraySlice<UInt8>.self)
            let producer = Task {
                continuation.yield(first[...])
                let arrived = await waitUntil(timeout: 2) { server.log.withLock { $0.bodyBytesArrived } - before >= first.count }
                arrivedEarly.withLock { $0 = arrived }
                continuation.yield(second[...])
                continuation.finish()
            }
            let body = HTTPBody(chunks, length: .unknown, iterationBehavior: .single)
            let echo = try await client.echoBody(body: .binary(body)).ok.body.json
            await producer.value
            XCTAssertEqual(echo.bodyLength, 15_000, name)
            XCTAssertEqual(server.requests.last?.body, Data(first + second), name)
            XCTAssertEqual(arrivedEarly.withLock { $0 }, name == "AsyncHTTPClientClient", "\(name): the first chunk went before the second was made")
        }
    }

    /// A body that can be iterated again is sent again by a retry; a one-shot body is sent once,
    /// and the answer to that one attempt is the generated code's.
    func testOnlyABodyThatCanBeReadAgainIsRetried() async throws {
        let bytes = [UInt8](repeating: 3, count: 30_000)
        try await withEachClient { name, client, server, faults in
            let retried = try await client.putFlaky(query: .init(key: "again", fail: 1), body: .binary(HTTPBody(bytes))).ok.body.json
            XCTAssertEqual(retried.attempt, 2, name)
            XCTAssertEqual(server.requests.filter { $0.path == "/flaky" }.map(\.body), [Data(bytes), Data(bytes)], name)

            let once = HTTPBody(AsyncStream { $0.yield(bytes[...]); $0.finish() }, length: .known(Int64(bytes.count)), iterationBehavior: .single)
            guard case .serviceUnavailable = try await client.putFlaky(query: .init(key: "once", fail: 1), body: .binary(once)) else {
                return XCTFail("\(name): a one-shot body was sent again")
            }
            XCTAssertEqual(faults.count("once"), 1, name)
        }
    }

    /// A `text/event-stream` answer decodes with the runtime's own Server-Sent Events decoder,
    /// as the events arrive.
    func testServerSentEventsDecodeWithTheRuntimesDecoder() async throws {
        try await withEachClient { name, client, _, _ in
            let body = try await client.ticks(headers: .init(lastEventID: "3")).ok.body.textEventStream
            var events: [OpenAPIRuntime.ServerSentEvent] = []
            for try await event in body.asDecodedServerSentEvents() { events.append(event) }
            // The first block holds a comment and the reconnection time, and no data.
            XCTAssertEqual(events.first?.retry, 50, name)
            let ticks = events.dropFirst()
            XCTAssertEqual(ticks.map(\.id), ["4", "5", "6"], name)
            XCTAssertEqual(ticks.map(\.event), ["tick", "tick", "tick"], name)
            XCTAssertEqual(ticks.last?.data, #"{"n":6}"#, name)
        }
    }

    func testTheResponseBodyStreamsAndCancellingClosesTheConnection() async throws {
        try await withEachClient { name, client, server, _ in
            let body = try await client.stream().ok.body.plainText
            let start = Date()
            var first: TimeInterval?
            var text = Data()
            for try await chunk in body {
                if first == nil { first = Date().timeIntervalSince(start) }
                text.append(contentsOf: chunk)
            }
            XCTAssertEqual(String(decoding: text, as: UTF8.self), "alpha\nbeta\r\ngamma\rdelta\nlast", name)
            XCTAssertLessThan(first ?? 1, 0.3, "\(name): the first chunk waited for the whole body")
            // A body without end: leaving it closes the connection.
            let endless = Task {
                var count = 0
                for try await _ in try await client.endless().ok.body.plainText {
                    count += 1
                    if count == 3 { break }
                }
            }
            try await endless.value
            let closed = await server.waitForDisconnect(of: "/endless")
            XCTAssertTrue(closed, "\(name): the connection stayed open")
            // A large body arrives whole.
            let size: Int64 = 8 << 20
            var received = 0
            for try await chunk in try await client.bytes(query: .init(count: size)).ok.body.binary { received += chunk.count }
            XCTAssertEqual(received, Int(size), name)
        }
    }

    /// Fields named more than once (in any case) reach the server as one field, `Cookie`'s
    /// joined with `; `; the answer's length is handed on when its head tells it. Each client
    /// keeps its cookies in a jar of its own: the shared store would put its own `Cookie` field
    /// in place of the request's.
    func testRepeatedFieldsArriveJoinedAndTheBodyLengthIsKnown() async throws {
        let clients: [(String, @Sendable (URL) -> any EndpointKit.Client)] = [
            ("URLSessionClient", { URLSessionClient(requestAdapter: BaseRequestAdapter(baseURL: $0), cookieStorage: CookieJar()) }),
            ("AsyncHTTPClientClient", { AsyncHTTPClientClient(baseURL: $0, cookieStorage: CookieJar()) }),
        ]
        for (name, make) in clients {
            let server = try await TestServer.start(FaultRoutes().handler)
            let endpointKit = make(server.baseURL)
            let transport = EndpointKitTransport(client: endpointKit)
            var fields = HTTPFields()
            for (field, value) in [("X-Tag", "a"), ("x-tag", "b"), ("Cookie", "a=1"), ("cookie", "b=2")] {
                fields.append(HTTPField(name: try XCTUnwrap(HTTPField.Name(field)), value: value))
            }
            let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/echo", headerFields: fields)
            let (response, body) = try await transport.send(request, body: nil, baseURL: server.baseURL, operationID: "echo")
            XCTAssertEqual(response.status, .ok, name)
            let bytes = try await Data(collecting: try XCTUnwrap(body), upTo: 1 << 20)
            XCTAssertEqual(body?.length, .known(Int64(bytes.count)), name)
            XCTAssertEqual(server.requests.last?.header("X-Tag"), "a, b", name)
            XCTAssertEqual(server.requests.last?.header("Cookie"), "a=1; b=2", name)
            // A compressed answer's length is not the head's: the client hands on the decoded bytes.
            let gzip = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/gzip")
            let (encoded, decoded) = try await transport.send(gzip, body: nil, baseURL: server.baseURL, operationID: "gzip")
            XCTAssertEqual(encoded.headerFields[.contentEncoding], "gzip", name)
            XCTAssertEqual(decoded?.length, .unknown, name)
            let book = try JSONDecoder().decode(Book.self, from: try await Data(collecting: try XCTUnwrap(decoded), upTo: 1 << 20))
            XCTAssertEqual(book.title, "Dune", name)
            try await endpointKit.shutdown()
            await server.shutdown()
        }
    }

    /// An answer to a HEAD, and a 304, have no body, although their `Content-Length` gives
    /// the length of one (here past what the runtime would collect): the transport hands on
    /// none, as the official transports do for a HEAD, and the connection serves on.
    func testAnswersWithoutABodyHandOnNone() async throws {
        for (name, make) in Self.clients {
            let server = try await TestServer.start(FaultRoutes().handler)
            let endpointKit = make(server.baseURL, [])
            let transport = EndpointKitTransport(client: endpointKit)
            let length = "\(200 << 20)"
            let head = HTTPRequest(method: .head, scheme: nil, authority: nil, path: "/head-length?length=\(length)")
            let (headAnswer, headBody) = try await transport.send(head, body: nil, baseURL: server.baseURL, operationID: "head")
            XCTAssertEqual(headAnswer.status, .ok, name)
            XCTAssertEqual(headAnswer.headerFields[.contentLength], length, name)
            XCTAssertNil(headBody, name)
            var fields = HTTPFields()
            fields[.ifNoneMatch] = #""b1""#
            let conditional = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/etag-book?length=\(length)", headerFields: fields)
            let (unchanged, unchangedBody) = try await transport.send(conditional, body: nil, baseURL: server.baseURL, operationID: "etag")
            XCTAssertEqual(unchanged.status.code, 304, name)
            XCTAssertNil(unchangedBody, name)
            let get = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/books/1")
            let (book, bookBody) = try await transport.send(get, body: nil, baseURL: server.baseURL, operationID: "book")
            XCTAssertEqual(book.status, .ok, name)
            let bytes = try await Data(collecting: try XCTUnwrap(bookBody), upTo: 1 << 20)
            XCTAssertEqual(try JSONDecoder().decode(Book.self, from: bytes).title, "Dune", name)
            try await endpointKit.shutdown()
            await server.shutdown()
        }
    }

    func testTheOperationIDNamesTheCallAndTransportFailuresAreTyped() async throws {
        let names = Guarded<[String]>([])
        let monitor = NameMonitor(names: names)
        try await withEachClient(monitors: [monitor]) { name, client, _, _ in
            _ = try await client.getBook(path: .init(id: 1))
            XCTAssertEqual(names.withLock { $0.last }, "getBook", name)
        }
        for (name, make) in Self.clients {
            let refused = URL(string: "http://127.0.0.1:1")!
            let endpointKit = make(refused, [])
            let client = Client(serverURL: refused, transport: EndpointKitTransport(client: endpointKit))
            do {
                _ = try await client.getBook(path: .init(id: 1))
                XCTFail("\(name): a refused connection answered")
            } catch let error as ClientError {
                guard case EndpointKitError.transportFailed? = error.underlyingError as? EndpointKitError else {
                    return XCTFail("\(name): \(error.underlyingError)")
                }
            }
            try await endpointKit.shutdown()
        }
    }
}

/// Records each call's name.
struct NameMonitor: CallMonitor {
    let names: Guarded<[String]>
    func callStarted(_ event: CallStarted) { names.withLock { $0.append(event.call.endpoint) } }
}
