import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What every ``Client`` must do, as scenarios against the in-process server. EndpointKit's
/// tests run them with `URLSessionClient`; the AsyncHTTPClient package runs the same code (its
/// test target links this folder) with its client.
struct ClientScenarios: Sendable {
    /// Settings a scenario asks its client for.
    struct Options: Sendable {
        var observer: ResponseObserver?
        var monitors: [any CallMonitor] = []
        var retryPolicy: RetryPolicy = .none
        var timeout: TimeInterval?
        var maximumBodySize = 100 << 20
        var cache: HTTPCache?
        var overload: OverloadPolicy = .default
        /// Adapters after the base URL's, in order.
        var adapters: [any RequestAdapter] = []
        /// `nil` for the client's default.
        var cookieStorage: (any CookieStore)?

        /// These options as the configuration both clients take.
        func configuration(baseURL: URL) -> ClientConfiguration {
            ClientConfiguration(
                baseURL: baseURL, adapters: adapters, responseObserver: observer, monitors: monitors,
                retryPolicy: retryPolicy, timeout: timeout, maximumBodySize: maximumBodySize, cache: cache,
                cookieStorage: cookieStorage, overload: overload)
        }
    }

    /// Makes the client under test from the configuration every client takes.
    typealias MakeClient = @Sendable (ClientConfiguration) -> any Client

    let name: String
    let makeClient: MakeClient
    /// Shuts a client down once a scenario is done with it.
    let close: @Sendable (any Client) async -> Void
    /// Stops a client, letting its requests in flight finish (`URLSessionClient.invalidate()`,
    /// `AsyncHTTPClientClient.shutdown(gracePeriod:)`).
    var stopLettingCallsFinish: @Sendable (any Client) async -> Void = { _ in }
    /// Response forms of ``framingForms(_:_:)`` the client cannot read: the call must fail with
    /// a transport error instead (the caller says why).
    var unreadableForms: Set<String> = []
    /// Response forms that kill the process inside the client's HTTP stack, so are not sent.
    var fatalForms: Set<String> = []
    /// Whether the client refuses a compressed body cut short inside its compressed data (or
    /// hands over what it could decode, as libcurl does for `URLSessionClient` on Linux).
    var refusesCutCompressedBodies = true
    /// Whether the client sends each chunk of a ``ProducedBody`` as it is produced (or reads
    /// the body first).
    var sendsProducedBodiesAsProduced = false
    /// Whether the client sends a `GET` with a body (Foundation's URLSession refuses to).
    var sendsGETBodies = false
    /// Whether the client reads the body of a redirect status that comes without a `Location`
    /// (Foundation's URLSession on Linux drops it).
    var readsBodiesOfRedirectsWithoutLocation = false
    /// Whether the client reads a `deflate` body sent without zlib's wrapping, as libcurl does
    /// (or refuses it as a body it cannot decode).
    var readsRawDeflate = true
    /// Whether the client keeps the body of an answer that refuses an upload as it is sent
    /// (AsyncHTTPClient drops it when the connection closes under the upload's unsent bytes:
    /// the status alone comes).
    var keepsBodiesOfRefusals = true

    /// Every scenario, by name.
    var all: [(String, @Sendable (TestServer, FaultRoutes) async throws -> Void)] {
        [
            ("typed GET with both APIs", getWithBothAPIs), ("methods and bodies", methodsAndBodies),
            ("non-2xx carries status and body", unacceptableStatus),
            ("401 with an authentication challenge", authenticationChallenge), ("decoding failure names the path", decodingFailure),
            ("connection refused", connectionRefused), ("not HTTP", unsupportedScheme), ("reset connection", resetConnection), ("reset as it is accepted", resetOnAccept), ("truncated body", truncatedBody), ("unresolvable host", unresolvableHost),
            ("https to a plain HTTP port", tlsToAPlainPort),
            ("cancel closes the connection", cancellationClosesTheConnection), ("observer once per call", observerOnce),
            ("uploads byte-exact", uploadsByteExact), ("download with progress and resume", downloadAndResume),
            ("retries then succeeds", retries), ("timeout on a stalled body", timeout),
            ("redirects replay or drop bodies", redirects), ("body too large", bodyTooLarge),
            ("random cancellation", randomCancellation), ("download cancelled as it completes", downloadCancelledAsItCompletes),
            ("refused download", refusedDownload),
            ("streamed lines", streamedLines),
            ("stream error status", streamErrorStatus), ("stream early break", streamEarlyBreak),
            ("server-sent events reconnect", serverSentEvents), ("shutdown through any Client", shutdownThroughTheProtocol),
            ("call identity", callIdentity),
        ] + [
            ("call events", callEvents),
        ] + inlineRequestScenarios + configurationScenarios + wireScenarios + cancellationScenarios + cachingScenarios + streamScenarios + overloadScenarios + handshakeScenarios
            + producedBodyScenarios
    }

    /// Runs every scenario, each with a fresh server; failures name the scenario.
    func runAll() async throws {
        // SCENARIO=<part of a name> runs only the scenarios whose name contains it.
        let only = ProcessInfo.processInfo.environment["SCENARIO"]
        for (scenario, run) in all where only.map({ scenario.contains($0) }) ?? true {
            let faults = FaultRoutes()
            let server = try await TestServer.start(faults.handler)
            do {
                try await run(server, faults)
            } catch {
                XCTFail("\(name), \(scenario): \(error)")
            }
            await server.shutdown()
        }
    }

    func with<T>(
        _ server: TestServer, _ options: Options = Options(), _ body: (any Client) async throws -> T
    ) async throws -> T {
        try await using(makeClient(options.configuration(baseURL: server.baseURL)), close: close, body)
    }

    func getWithBothAPIs(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            let book = try await client.request(GetBook())
            XCTAssertEqual(book, Routes.books[0], name)
            let books: [Book] = try await withCheckedThrowingContinuation { continuation in
                client.request(ListBooks()) { continuation.resume(with: $0) }
            }
            XCTAssertEqual(books, Routes.books, name)
        }
    }

    func methodsAndBodies(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            for method in [HTTPMethod.post, .put, .patch, .delete, .options, "QUERY"] + (sendsGETBodies ? [.get] : []) {
                let echo = try await client.request(EchoEndpoint(method: method, query: [.init(name: "q", value: "a+b & ü")]) {
                    try $0.setJSONBody(["title": "Dune"])
                })
                XCTAssertEqual(echo.method, method.rawValue, name)
                XCTAssertEqual(echo.body, #"{"title":"Dune"}"#, name)
                XCTAssertEqual(echo.headers["content-type"], "application/json", name)
                XCTAssertEqual(echo.query, "q=a%2Bb%20%26%20%C3%BC", name)
            }
            // A client that cannot send a GET with a body says so before sending, where
            // Foundation's own error reads "resource exceeds maximum size".
            guard !sendsGETBodies else { return }
            let sent = server.requests.count
            do {
                _ = try await client.request(EchoEndpoint(method: .get) { try $0.setJSONBody(["title": "Dune"]) })
                XCTFail("\(name): a GET with a body went through")
            } catch EndpointKitError.invalidRequest(let endpoint, let underlying) {
                XCTAssertEqual(endpoint, "URLRequest.httpBody", name)
                XCTAssertTrue("\(underlying.localizedDescription)".contains("GET with a body"), "\(name): \(underlying)")
            }
            XCTAssertEqual(server.requests.count, sent, name)
        }
    }

    func unacceptableStatus(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            do {
                try await client.request(PathEndpoint(path: "status", query: [.init(name: "code", value: "404"), .init(name: "body", value: "gone")]))
                XCTFail("\(name): expected an error")
            } catch let EndpointKitError.unacceptableStatus(failure) {
                XCTAssertEqual(failure.statusCode, 404, name)
                XCTAssertEqual(failure.bodyText, "gone", name)
            }
            // A redirect status without a Location is the answer (as curl and browsers take it),
            // whether the call reads it whole or as a stream. Foundation on Linux never hands
            // its head to the delegate, nor its body.
            for code in [301, 302, 303, 307, 308] {
                let endpoint = PathEndpoint(path: "status", query: [.init(name: "code", value: "\(code)"), .init(name: "body", value: "no Location")])
                do {
                    try await client.request(endpoint)
                    XCTFail("\(name), \(code): expected an error")
                } catch let EndpointKitError.unacceptableStatus(failure) {
                    XCTAssertEqual(failure.statusCode, code, "\(name), \(code)")
                    XCTAssertEqual(failure.headers["X-Test"], "yes", "\(name), \(code)")
                    XCTAssertEqual(failure.bodyText, readsBodiesOfRedirectsWithoutLocation ? "no Location" : "", "\(name), \(code)")
                }
                do {
                    _ = try await client.stream(endpoint)
                    XCTFail("\(name), \(code): expected an error from the stream")
                } catch let EndpointKitError.unacceptableStatus(failure) {
                    XCTAssertEqual(failure.statusCode, code, "\(name), \(code), stream")
                }
            }
        }
    }

    /// Foundation on Linux used to wait forever after a 401 whose challenge names a realm.
    func authenticationChallenge(_ server: TestServer, _: FaultRoutes) async throws {
        let challenges = [
            (401, #"Basic realm="api""#), (401, #"Bearer realm="api", error="invalid_token""#), (401, "Bearer"),
            (401, #"Digest realm="api", qop="auth", nonce="abc""#), (407, #"Basic realm="proxy""#),
        ]
        // A hang would end as a timeout, and fail the scenario, instead of stalling the run.
        try await with(server, Options(timeout: 10)) { client in
            for (code, challenge) in challenges {
                let endpoint = PathEndpoint(path: "status", query: [
                    .init(name: "code", value: "\(code)"), .init(name: "body", value: "who are you"),
                    .init(name: "challenge", value: challenge),
                ])
                do {
                    try await client.request(endpoint)
                    XCTFail("\(name), \(challenge): expected an error")
                } catch let EndpointKitError.unacceptableStatus(failure) {
                    XCTAssertEqual(failure.statusCode, code, "\(name), \(challenge)")
                    XCTAssertEqual(failure.bodyText, "who are you", "\(name), \(challenge)")
                }
                let result: Result<Void, any Error> = await withCheckedContinuation { continuation in
                    client.request(endpoint) { continuation.resume(returning: $0) }
                }
                guard case .failure(EndpointKitError.unacceptableStatus(let failure)) = result else {
                    return XCTFail("\(name), \(challenge), completion API: \(result)")
                }
                XCTAssertEqual(failure.statusCode, code, "\(name), \(challenge), completion API")
                do {
                    _ = try await client.stream(endpoint)
                    XCTFail("\(name), \(challenge), stream: expected an error")
                } catch let EndpointKitError.unacceptableStatus(failure) {
                    XCTAssertEqual(failure.bodyText, "who are you", "\(name), \(challenge), stream")
                }
            }
        }
    }

    func decodingFailure(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            do {
                _ = try await client.request(GetBook(path: "wrong-shape"))
                XCTFail("\(name): expected an error")
            } catch let EndpointKitError.decodingFailed(failure) {
                XCTAssertEqual(failure.codingPath, "author", name)
            }
        }
    }

    func connectionRefused(_ server: TestServer, _: FaultRoutes) async throws {
        let url = try await TestServer.stopped().baseURL
        let started = Date()
        // Where it could not connect, in words (libcurl's, and the same for AsyncHTTPClient).
        try await using(makeClient(Options().configuration(baseURL: url)), close: close) { client in
            await expectTransportFailure(name: name, .cannotConnectToHost, saying: "connect to 127.0.0.1 port \(url.port ?? 0)") {
                _ = try await client.request(GetBook())
            }
        }
        // As libcurl: at once, not after the connect timeout (AsyncHTTPClient's pool retried
        // for 10 s). The bound is loose so a loaded machine cannot fail it.
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, name)
    }

    /// A URL that is not HTTP (`gopher:`, `ftp:`): `.unsupportedURL`, in words, from either
    /// client, with nothing sent (Foundation would speak FTP to the HTTP server and wait a
    /// minute for its greeting).
    func unsupportedScheme(_ server: TestServer, _: FaultRoutes) async throws {
        for scheme in ["gopher", "ftp"] {
            let url = try XCTUnwrap(URL(string: "\(scheme)://127.0.0.1:\(server.baseURL.port ?? 0)/"))
            try await using(makeClient(Options().configuration(baseURL: url)), close: close) { client in
                await expectTransportFailure(name: "\(name) \(scheme)", .unsupportedURL, saying: "http and https, not \(scheme)") {
                    _ = try await client.request(GetBook())
                }
            }
        }
        XCTAssertTrue(server.requests.isEmpty, "\(name): something reached the server")
    }

    func resetConnection(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            await expectTransportFailure(name: name, .networkConnectionLost, saying: "Connection reset by peer") {
                try await client.request(PathEndpoint(path: "reset"))
            }
        }
    }

    /// A server that resets each connection as it accepts it: every call fails as a connection
    /// that could not be made or was lost, codes a retry policy knows, and every GET is retried.
    /// libcurl says "Couldn't connect to server" of most such resets, which Foundation on Linux
    /// typed `.unknown`, so `URLSessionClient` retried none of them. A request is sent again on
    /// a fresh connection after its connection closed unanswered (meant for a pooled one a
    /// server dropped as idle) only until such a second send fails too, then not for a second:
    /// `AsyncHTTPClientClient` sent every attempt twice.
    func resetOnAccept(_: TestServer, _: FaultRoutes) async throws {
        let listener = try await ResettingListener.start()
        let started = Date()
        let options = Options(retryPolicy: RetryPolicy(initialDelay: 0.001, jitter: 0), timeout: 10, overload: .none)
        var codes: [URLError.Code: Int] = [:]
        try await using(makeClient(options.configuration(baseURL: listener.url)), close: close) { client in
            for _ in 0..<20 {
                do {
                    _ = try await client.request(GetBook())
                    XCTFail("\(name): a reset connection answered")
                } catch EndpointKitError.transportFailed(_, let underlying as URLError) {
                    codes[underlying.code, default: 0] += 1
                    XCTAssertTrue([.cannotConnectToHost, .networkConnectionLost].contains(underlying.code), "\(name): \(underlying)")
                    XCTAssertFalse("\(underlying)".contains("could not be completed"), "\(name) says nothing of the cause: \(underlying)")
                }
            }
        }
        await listener.stop()
        XCTAssertEqual(codes.values.reduce(0, +), 20, "\(name): \(codes)")
        // Sent again after a cut: once, then once each second the pause (1 s) ends; and when
        // the reset came before a byte of the request was written (which costs the server
        // nothing but the connection), up to three more times: how often the reset beats the
        // write is the scheduler's (a README run saw 72 connections within a second, where half
        // a call was allowed: 71), so one a call is allowed. Far from every attempt twice (120
        // connections).
        let resends = 1 + Int(Date().timeIntervalSince(started)) + 20
        XCTAssertTrue((20 * 3...20 * 3 + resends).contains(listener.accepted), "\(name): \(listener.accepted) connections (\(codes))")
    }

    func tlsToAPlainPort(_ server: TestServer, _: FaultRoutes) async throws {
        var parts = URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false)
        parts?.scheme = "https"
        try await using(makeClient(Options(timeout: 20).configuration(baseURL: parts?.url ?? server.baseURL)), close: close) { client in
            await expectTransportFailure(name: name, .secureConnectionFailed, saying: "did not answer in TLS") {
                _ = try await client.request(GetBook())
            }
        }
    }

    /// 1,000 bytes announced, 19 sent, then the connection closed: an error saying so, not
    /// garbage, and with the code retry policies know (libcurl's is `.unknown` in Foundation).
    func truncatedBody(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            await expectTransportFailure(name: name, .networkConnectionLost) { _ = try await client.request(GetBook(path: "truncate")) }
            // The same for the body of an answer refusing an upload (not taken as whole).
            let payload = Data("sent".utf8)
            for body in [UploadEndpointBody.data(payload), .stream { InputStream(data: payload) }] {
                await expectTransportFailure(name: name, .networkConnectionLost) {
                    _ = try await client.upload(AnyStatusUpload(path: "refusal-cut", body: body))
                }
            }
        }
        // So a GET cut short is retried by the same policy with either client.
        try await with(server, Options(retryPolicy: RetryPolicy(initialDelay: 0.01, jitter: 0))) { client in
            _ = try? await client.request(GetBook(path: "truncate"))
        }
        XCTAssertEqual(server.requests.filter { $0.path == "/truncate" }.count, 1 + 3, name)
    }

    func unresolvableHost(_: TestServer, _: FaultRoutes) async throws {
        let url = URL(string: "http://no-such-host.invalid")!
        try await using(makeClient(Options(timeout: 20).configuration(baseURL: url)), close: close) { client in
            await expectTransportFailure(name: name, .cannotFindHost, saying: "Could not resolve host: no-such-host.invalid") {
                _ = try await client.request(GetBook())
            }
        }
    }

    func cancellationClosesTheConnection(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            let task = Task { try await client.request(SlowEndpoint(seconds: 10)) }
            _ = await waitUntil(timeout: 5) { server.requests.count == 1 }
            let started = Date()
            task.cancel()
            let result = await task.result
            XCTAssertLessThan(Date().timeIntervalSince(started), 2, name)
            XCTAssertTrue(result.error is CancellationError, "\(name): \(result)")
            let disconnected = await server.waitForDisconnect(of: "/slow")
            XCTAssertTrue(disconnected, name)
        }
    }

    func observerOnce(_ server: TestServer, _: FaultRoutes) async throws {
        let log = ObserverLog()
        try await with(server, Options(observer: log.observer)) { client in
            _ = try await client.request(GetBook())
            _ = try? await client.request(GetBook(path: "malformed"))
        }
        XCTAssertEqual(log.calls.count, 2, name)
        XCTAssertNil(log.calls.first?.error, name)
        XCTAssertEqual(log.calls.first?.response?.statusCode, 200, name)
        guard case EndpointKitError.decodingFailed? = log.calls.last?.error else {
            return XCTFail("\(name): \(String(describing: log.calls.last?.error))")
        }
    }

    func uploadsByteExact(_ server: TestServer, _: FaultRoutes) async throws {
        let payload = TransferRoutes.bytes(0..<300_000)
        let file = temporaryFile(contents: payload)
        defer { try? FileManager.default.removeItem(at: file) }
        try await with(server) { client in
            for body in [UploadEndpointBody.data(payload), .file(file), .stream { InputStream(data: payload) }] {
                let log = ProgressLog()
                let result = try await client.upload(Upload(body: body), progress: log.handler)
                XCTAssertEqual(result.received, payload.count, name)
                XCTAssertEqual(server.requests.last?.body, payload, name)
                XCTAssertEqual(log.reports.last(where: { $0.direction == .upload })?.completedBytes, Int64(payload.count), name)
            }
            var form = MultipartFormData()
            form.append("Dune", name: "title")
            let parts = try await client.upload(MultipartUpload(form: form))
            XCTAssertEqual(parts.first?.text, "Dune", name)
        }
    }

    func downloadAndResume(_ server: TestServer, _: FaultRoutes) async throws {
        let count: Int64 = 4 << 20
        let target = temporaryFile()
        defer {
            try? FileManager.default.removeItem(at: target)
            try? FileManager.default.removeItem(at: target.appendingPathExtension("resume"))
        }
        try await with(server) { client in
            let log = ProgressLog()
            let file = try await client.download(Download(count: count), progress: log.handler)
            XCTAssertTrue(try fileMatchesPattern(file, count: count), name)
            XCTAssertEqual(log.reports.last?.completedBytes, count, name)
            XCTAssertTrue(log.isMonotonic(.download), name)
            try? FileManager.default.removeItem(at: file)
            _ = try? await client.download(Download(count: count, drop: count / 2, resumableFileURL: target))
            // A client may lose bytes still buffered when the connection drops; it resumes from
            // exactly what it kept.
            let kept = (try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? NSNumber)?.int64Value ?? 0
            XCTAssertGreaterThan(kept, 0, name)
            XCTAssertLessThanOrEqual(kept, count / 2, name)
            let resumed = try await client.download(Download(count: count, resumableFileURL: target))
            XCTAssertTrue(try fileMatchesPattern(resumed, count: count), name)
            XCTAssertEqual(server.requests.last?.header("Range"), "bytes=\(kept)-", name)
            // A download that broke after its last byte left a whole file and its record: the
            // server refuses the range (416, `bytes */<size>`), and the file is handed over.
            let record = target.appendingPathExtension("resume")
            try Data(#""v1-\#(count)""#.utf8).write(to: record)
            let whole = try await client.download(Download(count: count, resumableFileURL: target))
            XCTAssertEqual(server.requests.last?.header("Range"), "bytes=\(count)-", name)
            XCTAssertTrue(try fileMatchesPattern(whole, count: count), name)
            XCTAssertFalse(FileManager.default.fileExists(atPath: record.path), "\(name): the record is gone")
            // Kept bytes longer than the entity are not its prefix: refused once, then gone, so
            // the next download starts over.
            try Data(repeating: 0x41, count: Int(count) + 10).write(to: target)
            try Data(#""v1-\#(count)""#.utf8).write(to: record)
            do {
                _ = try await client.download(Download(count: count, resumableFileURL: target))
                XCTFail("\(name): expected a 416")
            } catch let EndpointKitError.unacceptableStatus(failure) {
                XCTAssertEqual(failure.statusCode, 416, name)
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: record.path), "\(name): the record is gone")
            let fresh = try await client.download(Download(count: count, resumableFileURL: target))
            XCTAssertNil(server.requests.last?.header("Range"), name)
            XCTAssertTrue(try fileMatchesPattern(fresh, count: count), name)
        }
    }

    func retries(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await with(server, Options(retryPolicy: .fast)) { client in
            let result = try await client.request(AttemptEndpoint(path: "flaky?fail=2"))
            XCTAssertEqual(result.attempt, 3, name)
            let reset = try await client.request(AttemptEndpoint(path: "reset-first?fail=1"))
            XCTAssertEqual(reset.attempt, 2, name)
        }
    }

    func timeout(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(timeout: 0.5)) { client in
            // A body that stalls, an answer that never comes, a download that stalls: each ends
            // at the limit, naming it; the silent server's connection is closed.
            let calls: [(String, @Sendable () async throws -> Void)] = [
                ("stall-body", { try await client.request(PathEndpoint(path: "stall-body")) }),
                ("stall", { try await client.request(PathEndpoint(path: "stall")) }),
                ("download", { _ = try await client.download(Download(path: "stall-body", count: 0)) }),
            ]
            let silentBefore = server.disconnects.filter { $0 == "/stall" }.count
            for (label, call) in calls {
                let started = Date()
                do {
                    try await call()
                    XCTFail("\(name): \(label): expected a timeout")
                } catch let EndpointKitError.timedOut(url, limit) {
                    XCTAssertEqual(limit, 0.5, "\(name): \(label)")
                    XCTAssertEqual(url?.host, server.baseURL.host, "\(name): \(label)")
                }
                let elapsed = Date().timeIntervalSince(started)
                XCTAssertTrue((0.45..<2).contains(elapsed), "\(name): \(label): \(elapsed) s")
            }
            let disconnected = await server.waitForDisconnect(of: "/stall", count: silentBefore + 1)
            XCTAssertTrue(disconnected, name)
            // A stream's answer that refuses its upload and stalls: its status, with the
            // body that came before the limit.
            let payload = Data("sent".utf8)
            for body in [UploadEndpointBody.data(payload), .stream { InputStream(data: payload) }] {
                let refusing = Date()
                do {
                    _ = try await client.stream(Upload(path: "refusal-cut?stall=1", body: body))
                    XCTFail("\(name): expected a refusal")
                } catch let EndpointKitError.unacceptableStatus(failure) {
                    XCTAssertEqual(failure.statusCode, 413, name)
                    XCTAssertEqual(failure.bodyText?.count, 100, name)
                }
                XCTAssertLessThan(Date().timeIntervalSince(refusing), 2, name)
                // Taken as it is by an endpoint that takes any status: its body times out.
                let stream = try await client.stream(AnyStatusUpload(path: "refusal-cut?stall=1", body: body))
                XCTAssertEqual(stream.response.statusCode, 413, name)
                let reading = Date()
                do {
                    for try await _ in stream {}
                    XCTFail("\(name): expected a timeout")
                } catch let EndpointKitError.timedOut(_, limit) {
                    XCTAssertEqual(limit, 0.5, name)
                }
                XCTAssertLessThan(Date().timeIntervalSince(reading), 2, name)
            }
        }
    }

    func redirects(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            for status in [307, 308] {
                let echo = try await client.request(EchoEndpoint(method: .post, path: "redirect", query: [.init(name: "status", value: "\(status)")]) {
                    $0.setTextBody("kept")
                })
                XCTAssertEqual(echo.method, "POST", name)
                XCTAssertEqual(echo.body, "kept", name)
            }
            let seeOther = try await client.request(EchoEndpoint(method: .post, path: "redirect", query: [.init(name: "status", value: "303")]) {
                $0.setTextBody("dropped")
            })
            XCTAssertEqual(seeOther.method, "GET", name)
            XCTAssertEqual(seeOther.bodyLength, 0, name)
            // A Location in raw UTF-8, with a space (as servers send file names): followed with
            // its bytes percent-encoded, as browsers and curl do.
            let named = try await client.request(
                EchoEndpoint(path: "redirect", query: [.init(name: "to", value: "/echo?file=naïve café.txt")]))
            XCTAssertEqual(named.query, "file=na%C3%AFve%20caf%C3%A9.txt", name)
            // Only HTTP is followed: Foundation would speak FTP to the server (and wait for its
            // greeting) or hand over a data: URL's bytes as the answer.
            let port = server.baseURL.port ?? 80
            for target in ["ftp://127.0.0.1:\(port)/x", "data:text/plain,planted", "file:///etc/hostname", "gopher://127.0.0.1:\(port)/x"] {
                do {
                    try await client.request(PathEndpoint(path: "redirect", query: [.init(name: "to", value: target)]))
                    XCTFail("\(name): followed to \(target)")
                } catch EndpointKitError.redirectRefused(let url, let reason) {
                    XCTAssertEqual(url?.path, "/redirect", name)
                    XCTAssertTrue(reason.contains("points to \(target.prefix { $0 != ":" }):, not http or https"), "\(name): \(reason)")
                }
            }
        }
    }

    /// Refused as soon as the limit is passed, whether the head declares a longer body or not:
    /// the first two bodies never end, and the call is not kept waiting for more of them; the
    /// last one (1 MiB, chunked) comes whole.
    func bodyTooLarge(_ server: TestServer, _: FaultRoutes) async throws {
        for (path, limit) in [("huge-length", 100 << 20), ("stall-chunked", 50), ("chunked-big", 100_000)] {
            try await with(server, Options(timeout: 10, maximumBodySize: limit)) { client in
                let started = Date()
                do {
                    try await client.request(PathEndpoint(path: path))
                    XCTFail("\(name): \(path): expected an error")
                } catch EndpointKitError.bodyTooLarge(let url, let refused) {
                    XCTAssertEqual(url?.path, "/\(path)", name)
                    XCTAssertEqual(refused, limit, name)
                }
                XCTAssertLessThan(Date().timeIntervalSince(started), 5, "\(name): \(path)")
            }
        }
    }

    func randomCancellation(_ server: TestServer, _: FaultRoutes) async throws {
        let ended = Guarded(0)
        try await with(server) { client in
            for iteration in 0..<200 {
                let task = Task { try await client.request(iteration % 5 == 0 ? GetBook(path: "slow?seconds=5") : GetBook()) }
                try await Task.sleep(nanoseconds: UInt64.random(in: 0...2_000_000))
                task.cancel()
                switch await task.result {
                case .success, .failure(is CancellationError): ended.withLock { $0 += 1 }
                case .failure(let error): XCTFail("\(name): \(error)")
                }
            }
        }
        XCTAssertEqual(ended.withLock { $0 }, 200, name)
    }

    /// Downloads cancelled at random around the time they take, so that many cancels land as
    /// the body completes: every call ends, and no temporary file is left behind once it has,
    /// whether the call returned it (deleted here) or ended cancelled. URLSessionClient left the
    /// file of a download whose end met the cancel (2 to 11 in 300, against nginx); later, one
    /// whose task ended as it was cancelled was deleted only after the call had ended.
    func downloadCancelledAsItCompletes(_ server: TestServer, _: FaultRoutes) async throws {
        let before = temporaryFilesOfEndpointKit()
        // Half with a time limit, which races the download against a timer.
        for timeout in [nil, 60] as [TimeInterval?] {
            try await downloadsCancelledAsTheyComplete(server, Options(timeout: timeout), before: before)
        }
    }

    private func downloadsCancelledAsTheyComplete(_ server: TestServer, _ options: Options, before: Set<String>) async throws {
        try await with(server, options) { client in
            let endpoint = Download(count: 8 << 20)
            var took: [TimeInterval] = []
            for _ in 0..<5 {
                let start = Date()
                try FileManager.default.removeItem(at: try await client.download(endpoint))
                took.append(Date().timeIntervalSince(start))
            }
            let typical = took.sorted()[2]
            for _ in 0..<75 {
                let task = Task { try await client.download(endpoint) }
                try await Task.sleep(nanoseconds: UInt64(typical * .random(in: 0.5...1.5) * 1e9))
                task.cancel()
                switch await task.result {
                case .success(let file): try FileManager.default.removeItem(at: file)
                case .failure(is CancellationError): break
                case .failure(let error): XCTFail("\(name): \(error)")
                }
                XCTAssertEqual(temporaryFilesOfEndpointKit().subtracting(before), [], name)
            }
        }
    }

    /// A download whose endpoint refuses the 2xx it got (its own `validate`) fails with the
    /// endpoint's error and leaves no temporary file (one was left for each such call); a
    /// resumable one keeps its file, which is the caller's.
    func refusedDownload(_ server: TestServer, _: FaultRoutes) async throws {
        let before = temporaryFilesOfEndpointKit()
        let kept = temporaryFile()
        defer { try? FileManager.default.removeItem(at: kept) }
        try await with(server) { client in
            for resumable in [nil, kept] {
                do {
                    _ = try await client.download(Download(count: 1 << 20, resumableFileURL: resumable, refusesEveryAnswer: true))
                    XCTFail("\(name): a refused answer was handed over")
                } catch let error as URLError {
                    XCTAssertEqual(error.code, .badServerResponse, name)
                }
            }
        }
        XCTAssertEqual(temporaryFilesOfEndpointKit().subtracting(before), [], name)
        XCTAssertEqual((try? FileManager.default.attributesOfItem(atPath: kept.path)[.size] as? NSNumber)?.intValue, 1 << 20, name)
    }

    func streamedLines(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            let stream = try await client.stream(PathEndpoint(path: "stream"))
            XCTAssertEqual(stream.response.statusCode, 200, name)
            var lines: [String] = []
            for try await line in stream.lines { lines.append(line) }
            XCTAssertEqual(lines, ["alpha", "beta", "gamma", "delta", "last"], name)
        }
    }

    func streamErrorStatus(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            do {
                _ = try await client.stream(PathEndpoint(path: "status", query: [.init(name: "code", value: "404"), .init(name: "body", value: "gone")]))
                XCTFail("\(name): expected an error")
            } catch let EndpointKitError.unacceptableStatus(failure) {
                XCTAssertEqual(failure.bodyText, "gone", name)
            }
        }
    }

    func streamEarlyBreak(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            var count = 0
            for try await _ in try await client.stream(PathEndpoint(path: "endless")).lines {
                count += 1
                if count == 3 { break }
            }
            let disconnected = await server.waitForDisconnect(of: "/endless")
            XCTAssertTrue(disconnected, name)
        }
    }

    /// The observer reads each call's context: one identity across a call's attempts, a new one
    /// per call, with either API and for streams.
    func callIdentity(_ server: TestServer, _: FaultRoutes) async throws {
        let log = ObserverLog()
        let before = Date()
        try await with(server, Options(observer: log.observer, retryPolicy: .fast)) { client in
            _ = try await client.request(AttemptEndpoint(path: "flaky?fail=2"))
            let _: Void = try await withCheckedThrowingContinuation { continuation in
                client.request(PathEndpoint(path: "status", query: [.init(name: "code", value: "204")])) { continuation.resume(with: $0) }
            }
            let stream = try await client.stream(PathEndpoint(path: "stream"))
            for try await _ in stream {}
        }
        let contexts = log.calls.map(\.context)
        XCTAssertEqual(contexts.count, 5, name)
        XCTAssertEqual(contexts.map { $0?.attempt }, [1, 2, 3, 1, 1], name)
        let ids = contexts.map { $0?.id }
        XCTAssertEqual(Set(ids[0..<3]).count, 1, "\(name): one identity across retries")
        XCTAssertEqual(Set(ids).count, 3, "\(name): a new identity per call")
        XCTAssertEqual(contexts.map { $0?.endpoint }, ["AttemptEndpoint", "AttemptEndpoint", "AttemptEndpoint", "PathEndpoint", "PathEndpoint"], name)
        XCTAssertTrue(contexts.allSatisfy { ($0?.startedAt ?? .distantPast) >= before }, name)
        XCTAssertNil(CallContext.current, name)
    }

    /// Code written against `any Client` can stop it; later calls are refused, and a second
    /// shutdown does nothing.
    func shutdownThroughTheProtocol(_ server: TestServer, _: FaultRoutes) async throws {
        let client: any Client = makeClient(Options().configuration(baseURL: server.baseURL))
        _ = try await client.request(GetBook())
        try await client.shutdown()
        do {
            _ = try await client.request(GetBook())
            XCTFail("\(name): expected clientInvalidated")
        } catch EndpointKitError.clientInvalidated {}
        try await client.shutdown()
        await close(client)
    }

    func serverSentEvents(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            // Three events a connection; after the sixth the server answers 204, which ends it.
            let reader = Task {
                var ids: [String?] = []
                for try await event in client.events(PathEndpoint(path: "sse")) { ids.append(event.id) }
                return ids
            }
            let watchdog = Task {
                try await Task.sleep(nanoseconds: 10_000_000_000)
                reader.cancel()
            }
            let ids = try await reader.value
            watchdog.cancel()
            XCTAssertEqual(ids, ["1", "2", "3", "4", "5", "6"], name)
            let requests = server.requests.filter { $0.path == "/sse" }
            XCTAssertEqual(requests.map { $0.header("Last-Event-ID") }, [nil, "3", "6"], "\(name): a 204 ends the reconnections")
            var kept: [ServerSentEvent] = []
            for try await event in client.events(PathEndpoint(path: "sse-once")) {
                kept.append(event)
                if kept.count == 2 { break }
            }
            XCTAssertEqual(kept.map(\.data), ["first", "second"], name)
            XCTAssertEqual(kept.map(\.id), ["7", "7"], "\(name): the last event ID carries over a reconnection")
            // An `id` with no value resets the ID: the next connection sends no Last-Event-ID
            // (the route refuses an empty one with 400) and starts over.
            var reset: [ServerSentEvent] = []
            for try await event in client.events(PathEndpoint(path: "sse-reset")) {
                reset.append(event)
                if reset.count == 3 { break }
            }
            XCTAssertEqual(reset.map(\.data), ["first", "second", "first"], name)
            XCTAssertEqual(reset.map(\.id), ["7", "", "7"], name)
            // An answer that is not an event stream ends the events at once, with the first
            // chunk of what it said, and is not asked again: `/endless` is text/plain and
            // never ends.
            do {
                for try await _ in client.events(PathEndpoint(path: "endless")) { XCTFail("\(name): text/plain read as events") }
                XCTFail("\(name): expected decodingFailed")
            } catch EndpointKitError.decodingFailed(let failure) {
                XCTAssertEqual(failure.contentType, "text/plain", name)
                XCTAssertEqual(failure.statusCode, 200, name)
                XCTAssertTrue(failure.bodyText?.hasPrefix("tick\n") == true, "\(name): \(failure.body.count) bytes")
                XCTAssertTrue("\(failure)".contains("not an event stream"), "\(failure)")
            }
            let dropped = await server.waitForDisconnect(of: "/endless")
            XCTAssertTrue(dropped, "\(name): the connection was left open")
            XCTAssertEqual(server.requests.filter { $0.path == "/endless" }.count, 1, "\(name): asked again")
        }
    }
}

/// Runs `body` with `client`, then closes the client whether `body` threw or not.
func using<T>(
    _ client: any Client, close: @Sendable (any Client) async -> Void, _ body: (any Client) async throws -> T
) async throws -> T {
    do {
        let result = try await body(client)
        await close(client)
        return result
    } catch {
        await close(client)
        throw error
    }
}

/// `call` must fail with `transportFailed` around a `URLError` of `code` that says its cause in
/// words (`words`, where both clients' words share them), never Foundation's wordless "The
/// operation could not be completed". `name` names the client in each failure.
func expectTransportFailure(
    name: String, _ code: URLError.Code, saying words: String? = nil, _ call: () async throws -> Void
) async {
    do {
        try await call()
        XCTFail("\(name): expected \(code), but the call ended without an error")
    } catch {
        guard case EndpointKitError.transportFailed(_, let underlying) = error else { return XCTFail("\(name): \(error)") }
        XCTAssertEqual((underlying as? URLError)?.code, code, "\(name): \(underlying)")
        XCTAssertFalse("\(error)".contains("could not be completed"), "\(name) says nothing of the cause: \(error)")
        if let words { XCTAssertTrue("\(error)".contains(words), "\(name): \(error)") }
    }
}
