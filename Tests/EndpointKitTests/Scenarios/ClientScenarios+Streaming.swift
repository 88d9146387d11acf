import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stream goes through the same steps as every other call: the redirect limit, the request's
/// preparation, retries.
extension ClientScenarios {
    var streamScenarios: [(String, @Sendable (TestServer, FaultRoutes) async throws -> Void)] {
        [
            ("stream redirect loop", streamRedirectLoop), ("stream request prepared", streamRequestPrepared),
            ("stream idle gap past the request's own interval", streamIdleGap), ("stream retried", streamRetried),
            ("stream random cancellation", streamRandomCancellation), ("stream head refused", streamHeadRefused),
            ("stream refused status, endless body", streamRefusedEndlessBody),
            ("stream refused status, trickling body", streamRefusedTricklingBody),
            ("events reconnect after a timeout", eventsReconnectAfterATimeout),
            ("events back off from a server that is down", eventsBackOff),
            ("events waiting to reconnect end as the client stops", eventsEndAsTheClientStops),
            ("lines and events longer than the body limit", endlessLine),
            ("stream silent past the timeout", streamSilentPastTheTimeout),
            ("stream chunks kept past later reads", streamChunksKept),
        ]
    }

    /// A body that stops coming fails the stream with `timedOut` once the reader has waited
    /// the timeout for more (Foundation's idle timeout, and AsyncHTTPClientClient's own), not
    /// after AsyncHTTPClient's 60 s read timeout; bytes kept waiting for a slow reader are
    /// not idle time.
    func streamSilentPastTheTimeout(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(timeout: 1)) { client in
            let start = Date()
            var count = 0
            do {
                for try await chunk in try await client.stream(PathEndpoint(path: "stall-body")) { count += chunk.count }
                XCTFail("\(name): expected timedOut")
            } catch EndpointKitError.timedOut {}
            let elapsed = Date().timeIntervalSince(start)
            XCTAssertEqual(count, 100, name)
            XCTAssertTrue(elapsed < 5, "\(name): \(elapsed) s")
            // The same with a request body read from a stream (AsyncHTTPClient's `async` API).
            let uploadStart = Date()
            count = 0
            do {
                let upload = Upload(path: "stall-body", body: .stream { InputStream(data: Data("sent".utf8)) })
                for try await chunk in try await client.stream(upload) { count += chunk.count }
                XCTFail("\(name): upload stream: expected timedOut")
            } catch EndpointKitError.timedOut {}
            let uploadElapsed = Date().timeIntervalSince(uploadStart)
            XCTAssertEqual(count, 100, name)
            XCTAssertTrue(uploadElapsed < 5, "\(name): upload stream: \(uploadElapsed) s")
            // An answer that never comes: the wait for its head ends at the limit.
            let silentStart = Date()
            do {
                _ = try await client.stream(PathEndpoint(path: "stall"))
                XCTFail("\(name): silent server: expected timedOut")
            } catch let EndpointKitError.timedOut(_, limit) {
                XCTAssertEqual(limit, 1, name)
            }
            let silentElapsed = Date().timeIntervalSince(silentStart)
            XCTAssertTrue((0.9..<3).contains(silentElapsed), "\(name): silent server: \(silentElapsed) s")
            // A reader that takes longer than the timeout between chunks still gets every byte.
            count = 0
            for try await chunk in try await client.stream(PathEndpoint(path: "chunked-big")) {
                if count == 0 { try await Task.sleep(nanoseconds: 1_500_000_000) }
                count += chunk.count
            }
            XCTAssertEqual(count, 64 * 16_384, name)
        }
    }

    /// A body that never ends its line, or its event, fails once it passes the client's
    /// `maximumBodySize` (1 MiB here, of 4 MiB sent): it does not take all memory.
    func endlessLine(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await with(server, Options(maximumBodySize: 1 << 20)) { client in
            for path in ["endless-line", "endless-line?lines=1"] {
                var lines = 0
                do {
                    for try await _ in try await client.stream(PathEndpoint(path: path)).lines { lines += 1 }
                    if path == "endless-line" { XCTFail("\(name): \(path): lines: expected bodyTooLarge") }
                } catch EndpointKitError.bodyTooLarge(_, let limit) {
                    XCTAssertEqual(limit, 1 << 20, name)
                }
                // Short lines are lines: only the line that never ends is refused.
                XCTAssertEqual(lines, path == "endless-line" ? 0 : 524_288, "\(name): \(path)")
                var events = 0
                do {
                    for try await _ in try await client.stream(PathEndpoint(path: path)).events { events += 1 }
                    XCTFail("\(name): \(path): events: expected bodyTooLarge")
                } catch EndpointKitError.bodyTooLarge(_, let limit) {
                    XCTAssertEqual(limit, 1 << 20, name)
                }
                XCTAssertEqual(events, 0, "\(name): \(path)")
                // events(_:) ends with it too: no reconnection into the same endless event.
                do {
                    for try await _ in client.events(PathEndpoint(path: path)) {}
                    XCTFail("\(name): \(path): events(_:): expected bodyTooLarge")
                } catch EndpointKitError.bodyTooLarge {}
            }
            XCTAssertEqual(faults.count("/endless-line"), 6, name)
        }
    }

    /// A feed that asked for reconnection at once (`retry: 0`) and whose server then resets
    /// every connection is asked again after 0 ms, then 250, 500, 1,000 ms…: not thousands of
    /// times a second. The same when each connection is answered, then reset before its first
    /// event.
    func eventsBackOff(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await with(server) { client in
            let answered = [URLQueryItem(name: "open", value: "1"), URLQueryItem(name: "key", value: "open")]
            for (query, key) in [([], "/sse-flap"), (answered, "open")] {
                let received = Guarded<[String]>([])
                let reading = Task {
                    for try await event in client.events(PathEndpoint(path: "sse-flap", query: query)) {
                        received.withLock { $0.append(event.data) }
                    }
                }
                try await Task.sleep(nanoseconds: 1_200_000_000)
                reading.cancel()
                _ = await reading.result
                XCTAssertEqual(received.withLock { $0 }, ["first"], "\(name): \(key)")
                // The first, then at most four reconnections (at 0, 0.25, 0.75 s…), each of which
                // AsyncHTTPClientClient sends once more on a fresh connection after a reset before
                // its head.
                let requests = faults.count(key)
                XCTAssertTrue((2...9).contains(requests), "\(name): \(key): \(requests) connections in 1.2 s")
            }
        }
    }

    /// A feed waiting to reconnect (the server asked for a minute) ends with
    /// `clientInvalidated` as its client stops, at once, as its next connection would: it did
    /// not wait out the minute, holding up a service's shutdown.
    func eventsEndAsTheClientStops(_ server: TestServer, _: FaultRoutes) async throws {
        let client = makeClient(Options().configuration(baseURL: server.baseURL))
        let received = Guarded<[String]>([])
        let reading = Task {
            let endpoint = PathEndpoint(path: "sse-retry", query: [URLQueryItem(name: "ms", value: "60000")])
            for try await event in client.events(endpoint) { received.withLock { $0.append(event.data) } }
        }
        let watchdog = Task {
            try await Task.sleep(nanoseconds: 10_000_000_000)
            reading.cancel()
        }
        for _ in 0..<200 where received.withLock({ $0 }).isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
        // Time for the connection to end and the wait to begin.
        try await Task.sleep(nanoseconds: 300_000_000)
        let stopping = Date()
        try await client.shutdown()
        do {
            try await reading.value
            XCTFail("\(name): expected clientInvalidated")
        } catch EndpointKitError.clientInvalidated {}
        watchdog.cancel()
        let waited = Date().timeIntervalSince(stopping)
        XCTAssertLessThan(waited, 2, "\(name): the feed ended \(waited) s after the client stopped")
        XCTAssertEqual(received.withLock { $0 }, ["once"], name)
        XCTAssertEqual(server.requests.filter { $0.path == "/sse-retry" }.count, 1, "\(name): reconnected")
        await close(client)
    }

    /// Server-Sent Events reconnect when a connection times out (its head late, or, with
    /// `URLSessionClient`, the stream silent past the idle timeout), as when it breaks; within
    /// a deadline that has passed, they end with the timeout.
    func eventsReconnectAfterATimeout(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await with(server, Options(timeout: 1)) { client in
            var data: [String] = []
            for try await event in client.events(PathEndpoint(path: "sse-stall")) { data.append(event.data) }
            XCTAssertEqual(data, ["first", "second"], name)
            XCTAssertEqual(faults.count("/sse-stall"), 4, name)
            XCTAssertEqual(server.requests.filter { $0.path == "/sse-stall" }.map { $0.header("Last-Event-ID") }, [nil, "1", "1", "2"], name)
            // Under a deadline, the timeout is the end.
            do {
                try await CallDeadline.within(0.5) {
                    for try await _ in client.events(PathEndpoint(path: "stall")) {}
                }
                XCTFail("\(name): expected timedOut")
            } catch EndpointKitError.timedOut {}
            XCTAssertEqual(server.requests.filter { $0.path == "/stall" }.count, 1, "\(name): reconnected past the deadline")
        }
    }

    /// A stream redirected without end stops after 20 redirects, as every other call does.
    func streamRedirectLoop(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(timeout: 10)) { client in
            do {
                _ = try await client.stream(PathEndpoint(path: "loop"))
                XCTFail("\(name): expected redirectRefused")
            } catch EndpointKitError.redirectRefused {
                XCTAssertEqual(server.requests.filter { $0.path == "/loop" }.count, 21, name)
            }
        }
    }

    /// A manual `Content-Length` that does not match the body (or a `Transfer-Encoding`), in any
    /// case, is removed before sending, as for any other request: the server reads the whole
    /// body, and the call does not hang.
    func streamRequestPrepared(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(timeout: 10)) { client in
            let fields = [["Content-Length": "999"], ["content-LENGTH": "999"], ["TRANSFER-encoding": "chunked", "X-Other": "kept"]]
            for headers in fields {
                let endpoint = EchoEndpoint(method: .post, headers: headers) {
                    $0.httpBody = Data("hello".utf8)
                }
                var body = Data()
                for try await chunk in try await client.stream(endpoint) { body.append(chunk) }
                let echo = try JSONDecoder().decode(Echo.self, from: body)
                XCTAssertEqual(echo.bodyLength, 5, "\(name), \(headers)")
                XCTAssertEqual(echo.body, "hello", "\(name), \(headers)")
                XCTAssertEqual(echo.headers["content-length"], "5", "\(name), \(headers)")
                XCTAssertNil(echo.headers["transfer-encoding"], "\(name), \(headers)")
                XCTAssertEqual(echo.headers["x-other"], headers["X-Other"], "\(name), \(headers)")
            }
        }
    }

    /// A body that pauses longer than the request's own `timeoutInterval` (1 s here), with a
    /// client timeout of 2 s: Foundation's idle timeout is kept past the client's, as for any
    /// other request, so the pause does not end the stream.
    func streamIdleGap(_ server: TestServer, _: FaultRoutes) async throws {
        struct Paused: Endpoint {
            typealias Content = Void
            func makeRequest() throws -> URLRequest {
                var request = try URLRequest(.get, "bytes", query: [.init(name: "count", value: "70000"), .init(name: "delay_us", value: "1500000")])
                request.timeoutInterval = 1
                return request
            }
            func content(from response: URLResponse?, with body: Data) throws {}
        }
        try await with(server, Options(timeout: 2)) { client in
            var count = 0
            for try await chunk in try await client.stream(Paused()) { count += chunk.count }
            XCTAssertEqual(count, 70_000, name)
        }
    }

    /// Chunks a reader keeps, uncopied, hold their bytes while the client reads on and reads
    /// other bodies (a client may hand out a chunk that shares its read buffer).
    func streamChunksKept(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            let count = 4 << 20
            let endpoint = PathEndpoint(path: "bytes", query: [.init(name: "count", value: "\(count)")])
            var kept: [Data] = []
            for try await chunk in try await client.stream(endpoint) {
                kept.append(chunk)
            }
            for try await _ in try await client.stream(endpoint) {}
            XCTAssertGreaterThan(kept.count, 1, name)
            XCTAssertEqual(kept.reduce(into: Data()) { $0.append($1) }, TransferRoutes.bytes(0..<Int64(count)), name)
        }
    }

    /// A stream whose head is a 503 is retried by the client's policy, like any other call.
    func streamRetried(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(retryPolicy: .fast)) { client in
            var body = Data()
            for try await chunk in try await client.stream(PathEndpoint(path: "flaky", query: [.init(name: "fail", value: "2"), .init(name: "status", value: "503")])) {
                body.append(chunk)
            }
            XCTAssertEqual(server.requests.filter { $0.path == "/flaky" }.count, 3, name)
            XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("\"attempt\":3"), "\(name): \(String(decoding: body, as: UTF8.self))")
        }
    }

    /// Small streams whose task is cancelled at a random moment, from before the head to after
    /// the end: each ends once (for the observer too), with its whole body or with
    /// `CancellationError`, and no connection is left stuck behind them (the client still
    /// answers).
    func streamRandomCancellation(_ server: TestServer, _: FaultRoutes) async throws {
        let observed = ObserverLog()
        try await with(server, Options(observer: observed.observer)) { client in
            let expected = TransferRoutes.bytes(0..<200)
            var (whole, cancelled) = (0, 0)
            for _ in 0..<400 {
                let task = Task {
                    var body = Data()
                    for try await chunk in try await client.stream(PathEndpoint(path: "bytes", query: [.init(name: "count", value: "200")])) {
                        body.append(chunk)
                    }
                    return body
                }
                try await Task.sleep(nanoseconds: UInt64.random(in: 0...3_000_000))
                task.cancel()
                switch await task.result {
                case .success(let body):
                    XCTAssertEqual(body, expected, name)
                    whole += 1
                case .failure(let error):
                    XCTAssertTrue(error is CancellationError, "\(name): \(error)")
                    cancelled += 1
                }
            }
            print("\(name), small streams: \(whole) read whole, \(cancelled) cancelled")
            XCTAssertEqual(whole + cancelled, 400, name)
            XCTAssertGreaterThan(cancelled, 0, name)
            XCTAssertEqual(observed.calls.count, 400, name)
            let book = try await client.request(GetBook())
            XCTAssertEqual(book.id, 1, name)
        }
    }

    /// A stream whose head is refused after it arrived (an endless body under a coding no
    /// client decodes) does not leave its request reading: the connection is closed.
    func streamHeadRefused(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            // Whether the client refuses the coding or hands the bytes over as they are, the
            // stream goes here, unread.
            _ = try? await client.stream(PathEndpoint(path: "endless", query: [.init(name: "coding", value: "x-custom")]))
            let disconnected = await server.waitForDisconnect(of: "/endless")
            XCTAssertTrue(disconnected, name)
        }
    }

    /// A refused status whose body never ends (an error page streamed without end): the call
    /// fails with the status and the body's first 64 KiB; the rest is not read (the connection
    /// is closed).
    func streamRefusedEndlessBody(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            let endpoint = PathEndpoint(path: "endless", query: [.init(name: "status", value: "500"), .init(name: "size", value: "4096")])
            let error = await failure(within: 30) { _ = try await client.stream(endpoint) }
            guard case EndpointKitError.unacceptableStatus(let failure)? = error else {
                return XCTFail("\(name): expected unacceptableStatus, got \(String(describing: error))")
            }
            XCTAssertEqual(failure.statusCode, 500, name)
            XCTAssertEqual(failure.body.count, HTTPFailure.bodyLimit, name)
            let disconnected = await server.waitForDisconnect(of: "/endless")
            XCTAssertTrue(disconnected, name)
        }
    }

    /// A refused status whose body trickles without end (5 bytes every 10 ms: 64 KiB would take
    /// two minutes) is read within the attempt's time limit: the call fails with the status and
    /// the bytes that came, and the connection is closed.
    func streamRefusedTricklingBody(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(timeout: 1)) { client in
            let endpoint = PathEndpoint(path: "endless", query: [.init(name: "status", value: "503")])
            let error = await failure(within: 30) { _ = try await client.stream(endpoint) }
            guard case EndpointKitError.unacceptableStatus(let failure)? = error else {
                return XCTFail("\(name): expected unacceptableStatus, got \(String(describing: error))")
            }
            XCTAssertEqual(failure.statusCode, 503, name)
            XCTAssertTrue(failure.body.starts(with: Data("tick\n".utf8)), name)
            XCTAssertLessThan(failure.body.count, HTTPFailure.bodyLimit, name)
            let disconnected = await server.waitForDisconnect(of: "/endless")
            XCTAssertTrue(disconnected, name)
        }
    }

    /// The error `body` throws (`nil` if it returns); a test failure, and `body` cancelled, if it
    /// is still running after `seconds`.
    private func failure(within seconds: Double, _ body: @escaping @Sendable () async throws -> Void) async -> (any Error)? {
        await withTaskGroup(of: Result<Void, any Error>?.self) { group in
            group.addTask {
                do { return .success(try await body()) } catch { return .failure(error) }
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            guard let first else {
                XCTFail("\(name): still running after \(seconds) s")
                return nil
            }
            if case .failure(let error) = first { return error }
            return nil
        }
    }
}
