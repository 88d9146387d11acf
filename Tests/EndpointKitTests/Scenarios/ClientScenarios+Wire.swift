import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HTTP as servers really speak it, beyond what the test server's encoder writes.
extension ClientScenarios {
    var wireScenarios: [(String, @Sendable (TestServer, FaultRoutes) async throws -> Void)] {
        [
            ("compressed bodies", compressedBodies), ("content encodings", contentEncodings), ("conditional GET", conditionalGet), ("framing forms", framingForms),
            ("odd status codes", oddStatusCodes), ("HEAD with a length", headWithALength), ("an empty body in a coding", emptyBodyInACoding),
            ("redirect location forms", redirectLocationForms), ("an upload refused early", uploadRefusedEarly), ("a hang-up without an answer", hangUpWithoutAnAnswer),
            ("a head cut short", headCutShort), ("a compressed body cut short", compressedBodyCutShort),
            ("a streamed POST is not labelled a form", streamedPostIsNotAForm),
            ("idle connections closed by the server", idleConnectionsClosed),
            ("default request headers", defaultRequestHeaders), ("a line break in a header", lineBreakInAHeader), ("cookies set on a redirect", cookiesSetOnARedirect),
            ("credentials in the URL", credentialsInTheURL), ("a port outside 1-65535", portOutOfRange),
            ("dot segments in a path", dotSegmentsInAPath), ("a scheme in capitals", schemeInCapitals),
        ]
    }

    /// A URL whose port no TCP server can listen on (a typo in a configured base URL, or a
    /// server's redirect) fails before anything is sent, saying so. AsyncHTTPClient killed the
    /// process over an IP address with such a port, and sent to the port cut to 16 bits for a
    /// host name; Foundation failed with URLError -1000 and no reason.
    func portOutOfRange(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(timeout: 10)) { client in
            for url in ["http://127.0.0.1:99999/echo", "http://localhost:65536/echo", "http://127.0.0.1:0/echo"] {
                do {
                    try await client.request(PathEndpoint(path: url))
                    XCTFail("\(name), \(url): sent")
                } catch EndpointKitError.invalidRequest(_, let underlying as InvalidPort) {
                    XCTAssertEqual(underlying.port, URL(string: url)?.port, "\(name), \(url)")
                    XCTAssertTrue("\(underlying)".contains("between 1 and 65535"), "\(name): \(underlying)")
                } catch {
                    XCTFail("\(name), \(url): \(error)")
                }
            }
            // No host at all, or an empty one: a bad URL, saying so, with either client.
            for url in ["http:///echo", "http://user@/echo", "http://:80/echo"] {
                do {
                    try await client.request(PathEndpoint(path: url))
                    XCTFail("\(name), \(url): sent without a host")
                } catch let EndpointKitError.transportFailed(_, underlying as URLError) {
                    XCTAssertEqual(underlying.code, .badURL, "\(name), \(url): \(underlying)")
                    XCTAssertTrue(underlying.localizedDescription.contains("must have a host"), "\(name), \(url): \(underlying)")
                }
            }
            do {
                try await client.request(PathEndpoint(path: "redirect", query: [.init(name: "to", value: "http://127.0.0.1:99999/echo")]))
                XCTFail("\(name): followed to port 99999")
            } catch EndpointKitError.redirectRefused(let url, let reason) {
                XCTAssertEqual(url?.path, "/redirect", name)
                XCTAssertTrue(reason.contains("port 99999"), "\(name): \(reason)")
            }
        }
    }

    /// A URL's user and password (`http://user:pass@host/`, httpbin's `/basic-auth` as users
    /// call it) are sent as Basic credentials, as curl does, unless the request has its own
    /// `Authorization`; they go to that origin only, not after a redirect elsewhere.
    func credentialsInTheURL(_ server: TestServer, _: FaultRoutes) async throws {
        let port = server.port
        try await with(server, Options(timeout: 10)) { client in
            let basic = "Basic " + Data("ann:p@ss w".utf8).base64EncodedString()
            let plain = EchoEndpoint(configure: { $0.url = URL(string: "http://ann:p%40ss%20w@127.0.0.1:\(port)/echo") })
            let echo = try await client.request(plain)
            XCTAssertEqual(echo.headers["authorization"], basic, name)
            let own = EchoEndpoint(configure: {
                $0.url = URL(string: "http://ann:p%40ss%20w@127.0.0.1:\(port)/echo")
                $0.setValue("Bearer t", forHTTPHeaderField: "Authorization")
            })
            let kept = try await client.request(own)
            XCTAssertEqual(kept.headers["authorization"], "Bearer t", name)
            // Redirected to another origin (localhost, not 127.0.0.1): no credentials follow.
            let away = "http://localhost:\(port)/echo"
            let redirected = try await client.request(EchoEndpoint(configure: {
                $0.url = URL(string: "http://ann:pw@127.0.0.1:\(port)/redirect?to=\(away)")
            }))
            XCTAssertNil(redirected.headers["authorization"], name)
        }
    }

    /// A login's shape (httpbin's `/cookies/set`): a `302` sets two cookies and redirects;
    /// the redirected request and later calls carry them back. The client keeps cookies where
    /// its default configuration says (URLSessionClient: `HTTPCookieStorage.shared`, on Linux a
    /// jar of its own instead; AsyncHTTPClientClient is given the shared storage).
    func cookiesSetOnARedirect(_ server: TestServer, _: FaultRoutes) async throws {
        // On Linux the shared storage is also a file: start and end with none for this host.
        HTTPCookieStorage.shared.deleteCookies(for: server.baseURL)
        defer { HTTPCookieStorage.shared.deleteCookies(for: server.baseURL) }
        try await with(server, Options(timeout: 10)) { client in
            let query = [URLQueryItem(name: "session", value: "s1"), URLQueryItem(name: "theme", value: "dark")]
            let redirected = try await client.request(EchoEndpoint(path: "cookies/set", query: query))
            XCTAssertEqual(redirected.path, "/echo", name)
            let later = try await client.request(EchoEndpoint())
            for echo in [redirected, later] {
                let sent = (echo.headers["cookie"] ?? "").components(separatedBy: "; ").sorted()
                XCTAssertEqual(sent, ["session=s1", "theme=dark"], name)
            }
        }
    }

    /// Each `Content-Encoding` is decoded, or the call fails with `URLError.cannotDecodeContentData`
    /// naming it: encoded bytes never reach `content(from:with:)` as if they were the body.
    func contentEncodings(_ server: TestServer, _: FaultRoutes) async throws {
        var outcomes: [String] = []
        try await with(server, Options(timeout: 10)) { client in
            for coding in ["br", "zstd", "gzip, br", "GZIP", "identity", "x-custom"] {
                let endpoint = GetBook(path: "encoded", query: [.init(name: "coding", value: coding)])
                do {
                    let book = try await client.request(endpoint)
                    XCTAssertEqual(book, Routes.books[0], "\(name), \(coding)")
                    outcomes.append("\(coding): decoded")
                } catch let EndpointKitError.transportFailed(_, underlying) {
                    XCTAssertEqual((underlying as? URLError)?.code, .cannotDecodeContentData, "\(name), \(coding): \(underlying)")
                    outcomes.append("\(coding): refused")
                } catch {
                    XCTFail("\(name), \(coding): \(error)")
                }
            }
        }
        XCTAssertTrue(outcomes.contains("identity: decoded"), name)
        XCTAssertTrue(outcomes.contains("GZIP: decoded"), name)
        XCTAssertTrue(outcomes.contains("x-custom: refused"), name)
        print("\(name) content codings: \(outcomes.joined(separator: ", "))")
        // A body that is not in the coding its head names cannot be decoded, and says so.
        try await with(server, Options(timeout: 10)) { client in
            for coding in ["gzip", "deflate"] {
                let endpoint = GetBook(path: "encoded", query: [.init(name: "coding", value: coding), .init(name: "plain", value: "1")])
                await expectTransportFailure(name: "\(name), plain JSON labelled \(coding)", .cannotDecodeContentData) {
                    _ = try await client.request(endpoint)
                }
            }
        }
    }

    /// An endpoint that accepts `304` and leaves every other status to the default validation.
    func conditionalGet(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            let first = try await client.request(BookIfChanged(path: "etag-book", etag: nil))
            XCTAssertEqual(first?.book, Routes.books[0], name)
            XCTAssertEqual(first?.etag, #""b1""#, name)
            let second = try await client.request(BookIfChanged(path: "etag-book", etag: first?.etag))
            XCTAssertNil(second, name)
            XCTAssertEqual(server.requests.last?.header("If-None-Match"), #""b1""#, name)
            do {
                _ = try await client.request(BookIfChanged(path: "status?code=404&body=gone", etag: nil))
                XCTFail("\(name): expected the default validation to refuse a 404")
            } catch let EndpointKitError.unacceptableStatus(failure) {
                XCTAssertEqual(failure.bodyText, "gone", name)
            }
        }
    }

    func compressedBodies(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(timeout: 10)) { client in
            for encoding in ["gzip", "deflate", "negotiated"] {
                let book = try await client.request(GetBook(path: encoding))
                XCTAssertEqual(book, Routes.books[0], "\(name), \(encoding)")
            }
            // `deflate` without zlib's wrapping, as some servers send it: read, or refused as a
            // body that cannot be decoded.
            do {
                let book = try await client.request(GetBook(path: "raw-deflate"))
                XCTAssertEqual(book, Routes.books[0], name)
                XCTAssertTrue(readsRawDeflate, "\(name): read raw deflate after all")
            } catch let EndpointKitError.transportFailed(url, underlying) where !readsRawDeflate {
                XCTAssertEqual(url?.path, "/raw-deflate", name)
                XCTAssertEqual((underlying as? URLError)?.code, .cannotDecodeContentData, "\(name): \(underlying)")
                XCTAssertTrue("\(underlying)".contains("deflate"), "\(name): \(underlying)")
            }
        }
    }

    func framingForms(_ server: TestServer, _: FaultRoutes) async throws {
        let forms = [
            "close-delimited", "http-1.0", "chunked-trailer", "early-hints", "no-reason", "no-reason-no-space", "no-space-after-colon", "utf8-header",
            "latin1-header", "two-lengths", "folded-header",
        ]
        // Not HTTP, a head too large (a 150 kB field), two lengths that differ, or a chunk size
        // that is not one (`zz`) or past 64 bits: every client refuses them, as an answer it
        // could not parse.
        let notHTTP = [
            "negative-length", "nul-in-header", "line-without-colon", "four-digit-status", "http-3.0", "no-head", "huge-field",
            "differing-lengths", "bad-chunk-size", "huge-chunk-size",
        ]
        let unreadableForms = unreadableForms.union(notHTTP)
        try await with(server, Options(timeout: 10)) { client in
            for form in forms + notHTTP where !fatalForms.contains(form) {
                let endpoint = GetBook(path: "wire", query: [.init(name: "form", value: form)])
                do {
                    let book = try await client.request(endpoint)
                    XCTAssertEqual(book, Routes.books[0], "\(name), \(form)")
                    XCTAssertFalse(unreadableForms.contains(form), "\(name), \(form): read after all")
                } catch let EndpointKitError.transportFailed(_, underlying) where unreadableForms.contains(form) {
                    // Fails cleanly, as it must, as an answer that could not be read.
                    XCTAssertEqual((underlying as? URLError)?.code, .cannotParseResponse, "\(name), \(form): \(underlying)")
                } catch {
                    XCTFail("\(name), \(form): \(error)")
                }
            }
        }
    }

    func oddStatusCodes(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(timeout: 10)) { client in
            // Any 2xx is a success, even one without a name.
            try await client.request(PathEndpoint(path: "status", query: [.init(name: "code", value: "299")]))
            for code in [418, 451, 499, 599, 999] {
                do {
                    try await client.request(PathEndpoint(path: "status", query: [
                        .init(name: "code", value: "\(code)"), .init(name: "body", value: "odd"),
                    ]))
                    XCTFail("\(name), \(code): expected an error")
                } catch let EndpointKitError.unacceptableStatus(failure) {
                    XCTAssertEqual(failure.statusCode, code, name)
                    XCTAssertEqual(failure.bodyText, "odd", name)
                }
            }
        }
    }

    func headWithALength(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(timeout: 10)) { client in
            for _ in 0..<3 {
                try await client.request(PathEndpoint(method: .head, path: "head-length"))
            }
            // The connection is still usable afterwards.
            let book = try await client.request(GetBook())
            XCTAssertEqual(book, Routes.books[0], name)
        }
        // The length a HEAD or a 304 declares is that of a body not sent: past the client's
        // limit, it is no reason to refuse the answer.
        try await with(server, Options(timeout: 10, maximumBodySize: 1_000)) { client in
            let large = [URLQueryItem(name: "length", value: "\(200 << 20)")]
            try await client.request(PathEndpoint(method: .head, path: "head-length", query: large))
            // Nor for the coding it declares, known or not: there is nothing to decode. (NIO's
            // decompressor refuses the empty body of a gzip head.)
            for coding in ["gzip", "x-custom"] {
                let query = [URLQueryItem(name: "coding", value: coding)]
                do {
                    try await client.request(PathEndpoint(method: .head, path: "head-length", query: query))
                    var chunks = 0
                    for try await _ in try await client.stream(PathEndpoint(method: .head, path: "head-length", query: query)) { chunks += 1 }
                    XCTAssertEqual(chunks, 0, "\(name), streamed HEAD in \(coding)")
                    let unchanged = try await client.request(BookIfChanged(path: "etag-book?length=100&coding=\(coding)", etag: #""b1""#))
                    XCTAssertNil(unchanged, "\(name), 304 in \(coding)")
                } catch {
                    XCTFail("\(name), HEAD or 304 in \(coding): \(error)")
                }
            }
            let unchanged = try await client.request(BookIfChanged(path: "etag-book?length=\(200 << 20)", etag: #""b1""#))
            XCTAssertNil(unchanged, name)
            XCTAssertEqual(server.requests.last?.method, "GET", name)
        }
    }

    /// `Content-Length: 0` with `Content-Encoding: gzip` (some frameworks label every answer):
    /// an empty body, as curl and browsers read it, not a gzip stream cut short.
    func emptyBodyInACoding(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(timeout: 10)) { client in
            for coding in ["gzip", "deflate", "x-custom"] {
                let endpoint = PathEndpoint(path: "empty-encoded", query: [.init(name: "coding", value: coding)])
                do {
                    try await client.request(endpoint)
                    var chunks = 0
                    for try await _ in try await client.stream(endpoint) { chunks += 1 }
                    XCTAssertEqual(chunks, 0, "\(name), streamed, \(coding)")
                } catch {
                    XCTFail("\(name), \(coding): \(error)")
                }
            }
        }
    }

    /// A header field whose value (or name) holds a line break, from data a service passes
    /// on, would end the field there and start another the sender chose (header injection);
    /// Foundation drops such a value without a word. The call is refused, naming the field,
    /// before anything is sent: a value or name given to EndpointKit's request builder, and a
    /// name set on the request directly (which Foundation keeps, and libcurl would send).
    func lineBreakInAHeader(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(timeout: 10)) { client in
            let built = [("X-User", "s3cret\r\nX-Injected: yes"), ("X-User", "s3cret\nX-Injected: yes"), ("X-User", "s3\u{0}cret"), ("X-User\r\nX-Injected", "s3cret")]
            let direct: @Sendable (inout URLRequest) throws -> Void = { $0.setValue("s3cret", forHTTPHeaderField: "X-Name\r\nX-Injected") }
            // Other control characters, set on the request directly: libcurl sent them,
            // AsyncHTTPClient refused them as URLError -1 without naming the field.
            let controls = ["s3\u{7F}cret", "s3\u{1}cret"].map { value in
                EchoEndpoint(configure: { $0.setValue(value, forHTTPHeaderField: "X-Control") })
            }
            let endpoints = built.map { EchoEndpoint(headers: [$0.0: $0.1]) } + [EchoEndpoint(configure: direct)] + controls
            for (index, endpoint) in endpoints.enumerated() {
                let sent = server.requests.count
                do {
                    let echo = try await client.request(endpoint)
                    XCTFail("\(name), case \(index): sent with \(echo.headers)")
                } catch EndpointKitError.invalidRequest(_, let underlying as InvalidHeaderField) {
                    XCTAssertTrue(underlying.name.hasPrefix(index < 3 ? "X-User" : "X-"), "\(name), case \(index): \(underlying)")
                    XCTAssertFalse("\(underlying)".contains("s3"), "\(name): the value is not told")
                } catch {
                    XCTFail("\(name), case \(index): \(error)")
                }
                XCTAssertEqual(server.requests.count, sent, "\(name), case \(index): nothing is sent")
            }
            // Streamed, those set on the request directly are refused the same way.
            for (index, endpoint) in endpoints.enumerated().dropFirst(built.count) {
                do {
                    _ = try await client.stream(endpoint)
                    XCTFail("\(name), case \(index), streamed: sent")
                } catch EndpointKitError.invalidRequest(_, let underlying as InvalidHeaderField) {
                    XCTAssertTrue(underlying.name.hasPrefix("X-"), "\(name), case \(index), streamed: \(underlying)")
                    XCTAssertFalse("\(underlying)".contains("s3"), "\(name), streamed: the value is not told")
                } catch {
                    XCTFail("\(name), case \(index), streamed: \(error)")
                }
            }
            // A tab is allowed in a value.
            let tabbed = try await client.request(EchoEndpoint(configure: { $0.setValue("a\tb", forHTTPHeaderField: "X-Tab") }))
            XCTAssertEqual(tabbed.headers["x-tab"], "a\tb", name)
            // A method is a token too: with a line break it would add fields and a second
            // request (both libcurl and AsyncHTTPClient sent it so).
            for method in ["GET /echo HTTP/1.1\r\nX-Injected: yes\r\n\r\nGET", "GET X", "GET\n"] {
                let sent = server.requests.count
                do {
                    let echo = try await client.request(EchoEndpoint(configure: { $0.httpMethod = method }))
                    XCTFail("\(name), \(method.debugDescription): sent as \(echo.method) with \(echo.headers)")
                } catch EndpointKitError.invalidRequest(_, let underlying as InvalidMethod) {
                    XCTAssertEqual(underlying.method, method, name)
                } catch {
                    XCTFail("\(name), \(method.debugDescription): \(error)")
                }
                try await Task.sleep(nanoseconds: 100_000_000)
                XCTAssertEqual(server.requests.count, sent, "\(name), \(method.debugDescription): \(server.requests.suffix(2).map { "\($0.method) \($0.path) \($0.headers)" })")
            }
        }
    }

    func redirectLocationForms(_ server: TestServer, _: FaultRoutes) async throws {
        let host = "127.0.0.1:\(server.port)"
        try await with(server, Options(timeout: 10)) { client in
            for location in ["books/1", "/books/1", "./books/1?x=1", "//\(host)/books/1", "http://\(host)/books/1#top"] {
                for status in [301, 302, 303, 307, 308] {
                    do {
                        let book = try await client.request(GetBook(path: "redirect", query: [
                            .init(name: "to", value: location), .init(name: "status", value: "\(status)"),
                        ]))
                        XCTAssertEqual(book, Routes.books[0], "\(name), \(status) to \(location)")
                    } catch {
                        XCTFail("\(name), \(status) to \(location): \(error)")
                    }
                }
            }
        }
    }

    /// A proxy refusing a large upload answers 413 before the body has arrived; the call ends
    /// with that answer. When the server also closes at once, the upload may break first, so
    /// a transport failure is acceptable there, but never a hang.
    func uploadRefusedEarly(_ server: TestServer, _: FaultRoutes) async throws {
        // 4 MiB: more than the socket takes at once, written in one piece by AsyncHTTPClient,
        // part of it unsent when the connection closes (against nginx, most such calls lost
        // the answer); 32 MiB: written in 4 MiB pieces.
        let payloads = Array(repeating: Data(repeating: 0x61, count: 4 << 20), count: 8) + [Data(repeating: 0x61, count: 32 << 20)]
        try await with(server, Options(timeout: 20)) { client in
            for closing in [false, true] {
                let query = closing ? "?close=1" : ""
                for payload in payloads {
                    for (kind, body) in [("data", UploadEndpointBody.data(payload)), ("stream", .stream { InputStream(data: payload) })] {
                        do {
                            _ = try await client.upload(Upload(path: "early" + query, body: body))
                            XCTFail("\(name), early 413 \(query): expected an error")
                        } catch let EndpointKitError.unacceptableStatus(failure) {
                            XCTAssertEqual(failure.statusCode, 413, name)
                            let text = failure.bodyText ?? ""
                            XCTAssertTrue(text == "too large" || (text.isEmpty && !keepsBodiesOfRefusals), "\(name): \(text)")
                        } catch EndpointKitError.transportFailed where closing {
                            // The connection broke under the upload before the answer was read.
                        } catch {
                            XCTFail("\(name), early 413 \(query), \(kind), \(payload.count) bytes: \(String(reflecting: error))")
                        }
                    }
                }
            }
        }
    }

    /// A server that closes the connection at a request's head without answering, as one that
    /// crashes or is killed does: a GET, and a large upload whose body is still being sent
    /// (the send then breaks: `EPIPE` or a reset). Each fails with `.networkConnectionLost`, the
    /// code retry policies know, whatever the socket said.
    func hangUpWithoutAnAnswer(_ server: TestServer, _: FaultRoutes) async throws {
        let payload = Data(repeating: 0x61, count: 16 << 20)
        try await with(server, Options(timeout: 20)) { client in
            await expectTransportFailure(name: "\(name), GET", .networkConnectionLost) {
                _ = try await client.request(PathEndpoint(path: "early-hangup"))
            }
            for (kind, body) in [("data", UploadEndpointBody.data(payload)), ("stream", .stream { InputStream(data: payload) })] {
                for _ in 0..<5 {
                    await expectTransportFailure(name: "\(name), upload \(kind)", .networkConnectionLost) {
                        _ = try await client.upload(Upload(path: "early-hangup", body: body))
                    }
                }
            }
        }
    }

    /// A head cut short by the connection's close (a status line and a field, no blank line)
    /// is a lost connection, for a request and a stream, and a retry policy sends a GET again
    /// for it, as after any connection lost before the answer was whole.
    func headCutShort(_ server: TestServer, _: FaultRoutes) async throws {
        guard !fatalForms.contains("head-cut") else { return }
        var sends: [Int] = []
        for retryPolicy in [RetryPolicy.none, RetryPolicy(maximumAttempts: 2, initialDelay: 0.01, jitter: 0)] {
            try await with(server, Options(retryPolicy: retryPolicy, timeout: 10)) { client in
                let before = server.requests.count { $0.path == "/head-cut" }
                await expectTransportFailure(name: "\(name), GET", .networkConnectionLost) {
                    _ = try await client.request(PathEndpoint(path: "head-cut"))
                }
                sends.append(server.requests.count { $0.path == "/head-cut" } - before)
                await expectTransportFailure(name: "\(name), stream", .networkConnectionLost) {
                    _ = try await client.stream(PathEndpoint(path: "head-cut"))
                }
            }
        }
        // More with two attempts than with one (within an attempt, AsyncHTTPClientClient may
        // send a GET once more on a fresh connection, unless its resend pause holds it back).
        XCTAssertGreaterThan(sends.last ?? 0, sends.first ?? 0, "\(name): sent \(sends)")
    }

    /// A gzip body cut short inside its compressed data, whether its length says it is whole
    /// or the connection's close ends it, is refused as a body that cannot be decoded, not
    /// handed over as far as it came.
    func compressedBodyCutShort(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(timeout: 10)) { client in
            for framing in ["length", "close"] {
                let endpoint = BodyBytes(path: "gzip-cut", query: [.init(name: "framing", value: framing)])
                do {
                    let body = try await client.request(endpoint)
                    XCTAssertFalse(refusesCutCompressedBodies, "\(name), \(framing): handed over \(body.count) bytes")
                    XCTAssertLessThan(body.count, 1_000, "\(name), \(framing)")
                } catch let EndpointKitError.transportFailed(_, underlying) where refusesCutCompressedBodies {
                    XCTAssertEqual((underlying as? URLError)?.code, .cannotDecodeContentData, "\(name), \(framing): \(underlying)")
                }
            }
        }
    }

    /// A POST whose body is streamed (a stream, or a file) and that names no `Content-Type`
    /// is not labelled `application/x-www-form-urlencoded`, as libcurl labels it, so a server
    /// that parses forms does not read the bytes as one; a type the request names is kept.
    func streamedPostIsNotAForm(_ server: TestServer, _: FaultRoutes) async throws {
        let payload = Data("{\"a\":1}".utf8)
        try await with(server) { client in
            for headers in [[:], ["Content-Type": "text/csv"]] {
                _ = try await client.upload(Upload(path: "upload", body: .stream { InputStream(data: payload) }, headers: headers))
                let sent = server.requests.last?.header("Content-Type")
                XCTAssertEqual(server.requests.last?.body, payload, name)
                if let named = headers["Content-Type"] {
                    XCTAssertEqual(sent, named, name)
                } else {
                    XCTAssertTrue(sent == nil || sent == "application/octet-stream", "\(name): \(sent ?? "")")
                }
            }
        }
    }

    /// A server that closes idle keep-alive connections soon (30 ms here): the next call, sent
    /// before, at or after that close, still succeeds on a fresh connection.
    func idleConnectionsClosed(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(timeout: 10)) { client in
            var failures: [String] = []
            for attempt in 0..<60 {
                do {
                    _ = try await client.request(GetBook(path: "idle-close"))
                } catch {
                    failures.append("\(attempt): \(error)")
                }
                try await Task.sleep(nanoseconds: UInt64(20_000_000 + attempt % 20 * 1_000_000))
            }
            XCTAssertEqual(failures, [], name)
        }
    }

    /// Some APIs refuse a request without a User-Agent; both clients send one, and `Accept`,
    /// unless the request sets its own.
    func defaultRequestHeaders(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            let echo = try await client.request(EchoEndpoint())
            XCTAssertFalse(echo.headers["user-agent", default: ""].isEmpty, "\(name): \(echo.headers)")
            XCTAssertEqual(echo.headers["accept"], "*/*", name)
            let own = try await client.request(EchoEndpoint(headers: ["User-Agent": "mine/1.0", "Accept": "application/json"]))
            XCTAssertEqual(own.headers["user-agent"], "mine/1.0", name)
            XCTAssertEqual(own.headers["accept"], "application/json", name)
        }
    }

    /// `.` and `..` segments of a path are resolved before it is sent (RFC 3986, 5.2.4), as
    /// libcurl does: each client asks for the same resource. A query is left as it is.
    func dotSegmentsInAPath(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server) { client in
            for path in ["a/./b/../../echo", "./echo", "x/../echo?to=../up/./here"] {
                let echo = try await client.request(EchoEndpoint(path: path))
                XCTAssertEqual(echo.path, "/echo", "\(name), \(path)")
                if path.contains("?") { XCTAssertEqual(echo.query, "to=../up/./here", "\(name), \(path)") }
            }
            for try await _ in try await client.stream(EchoEndpoint(path: "x/../echo")) {}
            XCTAssertEqual(server.requests.last?.path, "/echo", "\(name), a stream")
        }
    }

    /// A scheme is case-insensitive (RFC 3986, 3.1): `HTTP://` as a configuration file may
    /// write it, or in a redirect's `Location`, is called as `http://`. URLSessionClient on
    /// Linux refused it as an unsupported URL.
    func schemeInCapitals(_ server: TestServer, _: FaultRoutes) async throws {
        let url = "HTTP://127.0.0.1:\(server.port)"
        try await with(server) { client in
            let echo = try await client.request(EchoEndpoint(path: url + "/echo"))
            XCTAssertEqual(echo.path, "/echo", name)
            let book = try await client.request(GetBook(path: "redirect", query: [.init(name: "to", value: url + "/books/1")]))
            XCTAssertEqual(book, Routes.books[0], name)
            for try await _ in try await client.stream(EchoEndpoint(path: url + "/echo")) {}
            XCTAssertEqual(server.requests.map(\.path).suffix(4), ["/echo", "/redirect", "/books/1", "/echo"], name)
        }
    }
}
