import AsyncHTTPClient
import EndpointKit
import InMemoryLogging
import Logging
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import EndpointKitAsyncHTTPClient

/// The shared client scenarios (linked from EndpointKit's tests), with `AsyncHTTPClientClient`.
final class AsyncHTTPClientClientTests: XCTestCase {
    override func tearDown() async throws {
        XCTAssertEqual(AsyncHTTPClientClient.unclosedClientCount, 0, "a client was dropped without shutdown()")
        try await super.tearDown()
    }

    func testAsyncHTTPClientClientPassesEveryScenario() async throws {
        var scenarios = ClientScenarios(
            name: "AsyncHTTPClientClient",
            makeClient: { configuration in
                // Cookies kept where URLSessionClient keeps them by default.
                var configuration = configuration
                configuration.cookieStorage = configuration.cookieStorage ?? HTTPCookieStorage.shared
                return AsyncHTTPClientClient(configuration)
            },
            close: { try? await ($0 as? AsyncHTTPClientClient)?.shutdown() })
        scenarios.stopLettingCallsFinish = { try? await ($0 as? AsyncHTTPClientClient)?.shutdown(gracePeriod: .seconds(30)) }
        scenarios.sendsProducedBodiesAsProduced = true
        scenarios.sendsGETBodies = true
        scenarios.keepsBodiesOfRefusals = false
        scenarios.readsBodiesOfRedirectsWithoutLocation = true
        scenarios.readsRawDeflate = false
        // llhttp refuses what RFC 9112 lets a client refuse, against response smuggling.
        scenarios.unreadableForms = ["two-lengths", "folded-header"]
        try await scenarios.runAll()
    }

    func testAShutDownClientRefusesCalls() async throws {
        let server = try await TestServer.start(Routes.standard)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL)
        _ = try await client.request(GetBook())
        try await client.shutdown()
        do {
            _ = try await client.request(GetBook())
            XCTFail("expected an error")
        } catch EndpointKitError.clientInvalidated {}
        try await client.shutdown()
        await server.shutdown()
    }

    /// A borrowed `HTTPClient` shut down while the client is still in use (a shutdown done in
    /// the wrong order): every kind of call fails with `clientInvalidated` (within half a
    /// second: see `SilentCallWatch`), none waits for an answer that cannot come.
    /// (AsyncHTTPClient fails such a request without telling its delegate.)
    func testCallsThroughABorrowedClientThatWasShutDownFail() async throws {
        let server = try await TestServer.start(Routes.standard)
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientClient.configuration)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL, httpClient: httpClient)
        _ = try await client.request(GetBook())
        try await httpClient.shutdown()
        let calls: [(String, @Sendable () async throws -> Void)] = [
            ("request", { _ = try await client.request(GetBook()) }),
            ("stream", { _ = try await client.stream(GetBook()) }),
            ("upload", { _ = try await client.upload(Upload(body: .data(Data("x".utf8))), progress: { _ in }) }),
        ]
        for (name, call) in calls {
            let outcome = Guarded<String?>(nil)
            let running = Task {
                do {
                    try await call()
                    outcome.withLock { $0 = "answered" }
                } catch EndpointKitError.clientInvalidated {
                    outcome.withLock { $0 = "clientInvalidated" }
                } catch {
                    outcome.withLock { $0 = "\(error)" }
                }
            }
            let ended = await waitUntil(timeout: 5) { outcome.withLock { $0 } != nil }
            running.cancel()
            XCTAssertTrue(ended, "\(name): still waiting after 5 s")
            XCTAssertEqual(outcome.withLock { $0 }, "clientInvalidated", name)
        }
        try await client.shutdown()
        await server.shutdown()
    }

    /// Calls through a borrowed `HTTPClient` whose answers take longer than the watch on its
    /// shutdown waits before it watches them (`SilentCallWatch`) are watched, and answered:
    /// the watch ends a call only if the `HTTPClient` fails it.
    func testSlowCallsThroughABorrowedClientAreAnsweredWhileWatched() async throws {
        let server = try await TestServer.start(Routes.standard)
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientClient.configuration)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL, httpClient: httpClient)
        let waits = [0.6, 0.05, 0.8, 0.3, 0.6, 0.05, 1.0, 0.3]
        // Each call streamed, then requested: the bytes of the streamed bodies ("done" each).
        let streamed = try await withThrowingTaskGroup(of: Int.self) { group in
            for seconds in waits {
                group.addTask {
                    var count = 0
                    for try await chunk in try await client.stream(SlowEndpoint(seconds: seconds)) { count += chunk.count }
                    try await client.request(SlowEndpoint(seconds: seconds))
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(streamed, 4 * waits.count)
        try await client.shutdown()
        try await httpClient.shutdown()
        await server.shutdown()
    }

    /// With no `timeout`, a server that never answers still cannot hang a call: the owned
    /// client's configuration has URLSession's 60 s idle limit. Here a borrowed `HTTPClient`
    /// with that configuration, shortened, shows the failure it gives.
    func testASilentServerFailsTheCallAtTheIdleLimit() async throws {
        XCTAssertEqual(AsyncHTTPClientClient.configuration.timeout.read, .seconds(60))
        let faults = FaultRoutes()
        let server = try await TestServer.start(faults.handler)
        var configuration = AsyncHTTPClientClient.configuration
        configuration.timeout.read = .milliseconds(300)
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL, httpClient: httpClient)
        for path in ["stall", "stall-body"] {
            do {
                try await client.request(PathEndpoint(path: path))
                XCTFail("\(path): expected an error")
            } catch EndpointKitError.transportFailed(_, let underlying) {
                XCTAssertEqual((underlying as? URLError)?.code, .timedOut, "\(path): \(underlying)")
            }
        }
        try await client.shutdown()
        try await httpClient.shutdown()
        await server.shutdown()
    }

    /// A borrowed `HTTPClient` that does not decompress (AsyncHTTPClient's default, and
    /// `HTTPClient.shared`'s) must not be sent `Accept-Encoding: gzip`: the server would answer
    /// with a body nobody decodes. One that decompresses asks for it itself.
    func testABorrowedClientOnlyAsksForCompressionItCanRead() async throws {
        let server = try await TestServer.start(Routes.standard)
        for decompression in [HTTPClient.Decompression.disabled, .enabled(limit: .none)] {
            let httpClient = HTTPClient(
                eventLoopGroupProvider: .singleton, configuration: .init(decompression: decompression))
            let client = AsyncHTTPClientClient(baseURL: server.baseURL, httpClient: httpClient)
            do {
                let book = try await client.request(GetBook(path: "negotiated"))
                XCTAssertEqual(book, Routes.books[0], "\(decompression)")
                let echo = try await client.request(EchoEndpoint())
                if case .disabled = decompression {
                    XCTAssertNil(echo.headers["accept-encoding"])
                } else {
                    XCTAssertEqual(echo.headers["accept-encoding"], "deflate, gzip")
                }
                // A server that compresses anyway: decoded, or a clear error, never the
                // compressed bytes handed to decoding.
                for coding in ["gzip", "deflate"] {
                    do {
                        let book = try await client.request(GetBook(path: coding))
                        XCTAssertEqual(book, Routes.books[0], "\(decompression), \(coding)")
                        if case .disabled = decompression { XCTFail("\(coding): expected cannotDecodeContentData") }
                    } catch EndpointKitError.transportFailed(_, let underlying as URLError) {
                        XCTAssertEqual(underlying.code, .cannotDecodeContentData)
                        XCTAssertTrue(underlying.localizedDescription.contains("'\(coding)'"), underlying.localizedDescription)
                        if case .enabled = decompression { XCTFail("\(coding): \(underlying)") }
                    }
                }
            } catch {
                XCTFail("\(decompression): \(error)")
            }
            try await client.shutdown()
            try await httpClient.shutdown()
        }
        await server.shutdown()
    }

    /// A host that never answers the connection (its SYNs dropped, here by a full accept
    /// queue) fails at the connect timeout with `URLError.timedOut`.
    func testAHostThatDoesNotAnswerFailsAtTheConnectTimeout() async throws {
        XCTAssertEqual(AsyncHTTPClientClient.configuration.timeout.connect, .seconds(10))
        let blackHole = try BlackHoleListener()
        defer { blackHole.close() }
        var configuration = AsyncHTTPClientClient.configuration
        configuration.timeout.connect = .milliseconds(500)
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let client = AsyncHTTPClientClient(baseURL: blackHole.url, httpClient: httpClient)
        let started = Date()
        do {
            _ = try await client.request(GetBook())
            XCTFail("expected a timeout")
        } catch EndpointKitError.transportFailed(_, let underlying) {
            XCTAssertEqual((underlying as? URLError)?.code, .timedOut, "\(underlying)")
        }
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThan(elapsed, 0.4)
        XCTAssertLessThan(elapsed, 5)
        try await client.shutdown()
        try await httpClient.shutdown()
    }

    /// A call's time limit holds while its connection is being made: to a host that never
    /// answers, with a 3 s connect timeout, a call with 0.5 s fails at its limit, naming it.
    /// (The client's shutdown then waits for that connection attempt to end: AsyncHTTPClient
    /// keeps a connection it is still making until it is made or times out.)
    func testATimeLimitEndsACallStillConnecting() async throws {
        let blackHole = try BlackHoleListener()
        defer { blackHole.close() }
        var configuration = AsyncHTTPClientClient.configuration
        configuration.timeout.connect = .seconds(3)
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let client = AsyncHTTPClientClient(baseURL: blackHole.url, httpClient: httpClient, timeout: 0.5)
        let started = Date()
        do {
            _ = try await client.request(GetBook())
            XCTFail("expected a timeout")
        } catch EndpointKitError.timedOut(_, let limit) {
            XCTAssertEqual(limit, 0.5)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5)
        try await client.shutdown()
        try await httpClient.shutdown()
    }

    /// Two clients with a jar each keep two sessions apart, in memory: nothing reaches the
    /// shared storage (on Linux, a file).
    func testEachCookieJarKeepsItsOwnSession() async throws {
        let server = try await TestServer.start(Routes.standard)
        let sharedBefore = HTTPCookieStorage.shared.cookies(for: server.baseURL) ?? []
        let (alice, bob) = (CookieJar(), CookieJar())
        let clients = [alice, bob].map { AsyncHTTPClientClient(baseURL: server.baseURL, cookieStorage: $0) }
        do {
            for (client, user) in zip(clients, ["alice", "bob"]) {
                let redirected = try await client.request(EchoEndpoint(path: "cookies/set?session=\(user)"))
                XCTAssertEqual(redirected.headers["cookie"], "session=\(user)")
            }
            for (client, user) in zip(clients, ["alice", "bob"]) {
                let later = try await client.request(EchoEndpoint())
                XCTAssertEqual(later.headers["cookie"], "session=\(user)")
            }
            XCTAssertEqual(alice.cookies.map(\.value), ["alice"])
            XCTAssertEqual((HTTPCookieStorage.shared.cookies(for: server.baseURL) ?? []).count, sharedBefore.count)
        } catch {
            XCTFail("\(error)")
        }
        for client in clients { try await client.shutdown() }
        await server.shutdown()
    }

    /// A WebSocket handshake is a call too: monitors see it start and end, and a refused one
    /// ends with its error.
    func testWebSocketHandshakesAreCallEvents() async throws {
        let server = try await TestServer.start(Routes.standard)
        let log = EventLog()
        let client = AsyncHTTPClientClient(baseURL: server.baseURL, monitors: [log])
        let socket = try await client.webSocket(SocketEndpoint())
        await socket.close()
        _ = try? await client.webSocket(SocketEndpoint(path: "books"))
        try await client.shutdown()
        await server.shutdown()
        XCTAssertEqual(log.calls.first, ["start GET /ws/echo", "attempt 1 GET /ws/echo", "attempt 1 ended 0 sent 0 received 0", "end 0"])
        XCTAssertEqual(log.calls.count, 2)
        XCTAssertEqual(log.calls.last?.first, "start GET /books")
        XCTAssertTrue(log.calls.last?.last?.hasPrefix("end refused") == true, "\(log.calls)")
    }

    /// A timeout of `.infinity` is no limit for a WebSocket's handshake either, not a crash.
    func testAWebSocketWithAnInfiniteTimeoutOpens() async throws {
        let server = try await TestServer.start(Routes.standard)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL, timeout: .infinity)
        let socket = try await client.webSocket(SocketEndpoint())
        try await socket.send(.text("hello"))
        var iterator = socket.makeAsyncIterator()
        let echoed = try await iterator.next()
        XCTAssertEqual(echoed, .text("hello"))
        await socket.close()
        try await client.shutdown()
        await server.shutdown()
    }

    /// AsyncHTTPClient's own lines (its request and connection pool) go to the logger given.
    /// It logs each response part at `.trace`: those lines hold the part's kind, not the head's
    /// fields (a cookie) or the body's bytes (as text or as the hex it writes them in).
    func testAsyncHTTPClientLogsToTheGivenLoggerWithoutFieldsOrBodyBytes() async throws {
        let server = try await TestServer.start(Routes.standard)
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "calls", factory: { _ in handler })
        logger.logLevel = .trace
        let client = AsyncHTTPClientClient(baseURL: server.baseURL, logger: logger)
        let echoed = try await client.request(EchoEndpoint(path: "cookies/set?session=s3cr3t-cookie"))
        XCTAssertEqual(echoed.path, "/echo")
        _ = try await client.request(EchoEndpoint(path: "echo?token=s3cr3t-query"))
        try await client.shutdown()
        await server.shutdown()
        let messages = handler.entries.map(\.message.description)
        XCTAssertTrue(messages.contains("Request was scheduled on connection"), "\(messages)")
        XCTAssertTrue(messages.contains("Opening fresh connection"), "\(messages)")
        let lines = handler.entries.map { "\($0.message) \($0.metadata)" }
        let parts = handler.entries.compactMap { $0.metadata["ahc-http-part"].map { "\($0)" } }
        XCTAssertEqual(Set(parts), ["head", "body", "end"], "\(lines)")
        for secret in ["s3cr3t-cookie", "s3cr3t-query"] {
            let hex = secret.utf8.map { String(format: "%02x", $0) }.joined()
            for line in lines {
                XCTAssertFalse(line.contains(secret) || line.contains(hex.prefix(12)), line)
            }
        }
    }

    /// Without a cookie storage (the default) cookies are neither kept nor sent.
    func testCookiesAreKeptOnlyWithAStorage() async throws {
        let server = try await TestServer.start(Routes.standard)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL)
        do {
            let redirected = try await client.request(EchoEndpoint(path: "cookies/set?session=s1"))
            let later = try await client.request(EchoEndpoint())
            XCTAssertEqual(redirected.path, "/echo")
            XCTAssertNil(redirected.headers["cookie"])
            XCTAssertNil(later.headers["cookie"])
        } catch {
            XCTFail("\(error)")
        }
        try await client.shutdown()
        await server.shutdown()
    }

    /// Back-pressure: a fast 256 MB stream read slowly keeps memory flat, because the body is
    /// read from the connection only as the reader asks.
    func testASlowReaderOfAFastStreamKeepsMemoryFlat() async throws {
        let server = try await TestServer.start(TransferRoutes.handler)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL)
        let count: Int64 = 256 << 20
        let stream = try await client.stream(PathEndpoint(path: "big-stream", query: [.init(name: "count", value: "\(count)")]))
        let before = residentMemory()
        var peak = before
        var received: Int64 = 0
        var chunks = 0
        for try await chunk in stream {
            received += Int64(chunk.count)
            chunks += 1
            if chunks % 64 == 0 {
                try await Task.sleep(nanoseconds: 2_000_000)
                peak = max(peak, residentMemory())
            }
        }
        XCTAssertEqual(received, count)
        XCTAssertLessThan(peak - before, 32 << 20, "resident memory grew \((peak - before) >> 20) MB")
        try await client.shutdown()
        await server.shutdown()
    }

    func testAsyncHTTPClientClientPassesEveryWebSocketScenario() async throws {
        let scenarios = WebSocketScenarios(
            name: "AsyncHTTPClientClient", makeClient: { AsyncHTTPClientClient(requestAdapter: $0) },
            close: { try? await ($0 as? AsyncHTTPClientClient)?.shutdown() }, cancellations: 200)
        try await scenarios.runAll()
    }

    /// The same scenarios over `wss://`, against a server with a certificate the client trusts.
    func testWebSocketsOverTLS() async throws {
        let scenarios = WebSocketScenarios(
            name: "AsyncHTTPClientClient (wss)",
            makeClient: { AsyncHTTPClientClient(requestAdapter: $0, tlsConfiguration: TestCertificate.clientTLS) },
            close: { try? await ($0 as? AsyncHTTPClientClient)?.shutdown() },
            baseURL: { $0.tlsBaseURL }, tls: TestCertificate.serverTLS)
        try await scenarios.runAll()
    }

    /// A message of up to 16 MiB arrives whole even in one frame (servers seldom fragment); one
    /// byte more ends the socket with 1009 (message too big), said to the server and the reader.
    func testWebSocketMessagesUpTo16MiB() async throws {
        let server = try await TestServer.start(Routes.standard)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL)
        let socket = try await client.webSocket(SocketEndpoint())
        var iterator = socket.makeAsyncIterator()
        for size in [10 << 20, 16 << 20] {
            try await socket.send(.text("big \(size)"))
            let message = try await iterator.next()
            XCTAssertEqual(message, .binary(TransferRoutes.bytes(0..<Int64(size))), "\(size) bytes")
        }
        try await socket.send(.text("big \((16 << 20) + 1)"))
        do {
            let message = try await iterator.next()
            XCTFail("a message over 16 MiB was read: \(String(describing: message).prefix(100))")
        } catch EndpointKitError.webSocketClosed(_, let code) {
            XCTAssertEqual(code, .messageTooBig)
        }
        XCTAssertEqual(socket.closeCode, .messageTooBig)
        XCTAssertEqual(socket.closeReason, "message over 16 MiB")
        let told = await server.waitForWebSocketEnds(["closed 1009"])
        XCTAssertTrue(told, "\(server.webSocketEnds)")
        try await client.shutdown()
        await server.shutdown()
    }

    /// A text message that is not UTF-8 cannot be delivered: the reader is told (1007), and so
    /// is the server.
    func testAWebSocketTextThatIsNotUTF8EndsTheSocket() async throws {
        let server = try await TestServer.start(Routes.standard)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL)
        let socket = try await client.webSocket(SocketEndpoint())
        try await socket.send(.text("not-utf8"))
        do {
            for try await message in socket { XCTFail("read \(message)") }
            XCTFail("the socket ended as if nothing was lost")
        } catch EndpointKitError.webSocketClosed(_, let code) {
            XCTAssertEqual(code, .invalidFramePayloadData)
        }
        let told = await server.waitForWebSocketEnds(["closed 1007"])
        XCTAssertTrue(told, "\(server.webSocketEnds)")
        try await client.shutdown()
        await server.shutdown()
    }

    func testAWebSocketToAnUntrustedServerFailsTheHandshake() async throws {
        let server = try await TestServer.start(tls: TestCertificate.serverTLS, Routes.standard)
        let client = AsyncHTTPClientClient(baseURL: server.tlsBaseURL)
        do {
            _ = try await client.webSocket(SocketEndpoint())
            XCTFail("an untrusted certificate was accepted")
        } catch EndpointKitError.transportFailed(let url, _) {
            XCTAssertEqual(url?.scheme, "https")
        }
        try await client.shutdown()
        await server.shutdown()
    }
}
