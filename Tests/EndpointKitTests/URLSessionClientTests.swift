import Foundation
import XCTest

@_spi(Locking) @testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class URLSessionClientTests: ServerTestCase {
    func testGetDecodesTypedContentWithBothAPIs() async throws {
        let book = try await client.request(GetBook())
        XCTAssertEqual(book, Routes.books[0])

        let result = await complete(ListBooks())
        XCTAssertEqual(try result.get(), Routes.books)
        XCTAssertEqual(server.requests.map(\.path), ["/books/1", "/books"])
    }

    func testEachMethodWithEachBodyReachesTheServer() async throws {
        struct Payload: Codable, Sendable { let title: String; let tags: [String] }
        let bodies: [(String, @Sendable (inout URLRequest) throws -> Void, String, String)] = [
            ("json", { try $0.setJSONBody(Payload(title: "Dune", tags: ["sf"])) },
             "application/json", #"{"title":"Dune","tags":["sf"]}"#),
            ("form", { $0.setFormBody([.init(name: "title", value: "War & Peace"), .init(name: "q", value: "a+b=c")]) },
             "application/x-www-form-urlencoded", "title=War%20%26%20Peace&q=a%2Bb%3Dc"),
            ("text", { $0.setTextBody("héllo\nworld") }, "text/plain; charset=utf-8", "héllo\nworld"),
        ]
        for method in [HTTPMethod.post, .put, .patch, .delete] {
            for (name, configure, contentType, expected) in bodies {
                let echo = try await client.request(EchoEndpoint(method: method, configure: configure))
                XCTAssertEqual(echo.method, method.rawValue, name)
                XCTAssertEqual(echo.headers["content-type"], contentType, "\(method) \(name)")
                if name == "json" {
                    let decoded = try JSONDecoder().decode(Payload.self, from: Data(echo.body.utf8))
                    XCTAssertEqual(decoded.title, "Dune")
                } else {
                    XCTAssertEqual(echo.body, expected, "\(method) \(name)")
                }
                XCTAssertEqual(echo.bodyLength, Data(echo.body.utf8).count)
            }
        }
    }

    func testAManualContentLengthIsReplacedNotSentTwice() async throws {
        let endpoint = EchoEndpoint(method: .post) { request in
            request.setTextBody("twelve bytes")
            request.setValue("999", forHTTPHeaderField: "Content-Length")
        }
        let echo = try await client.request(endpoint)
        XCTAssertEqual(echo.body, "twelve bytes")
        XCTAssertEqual(echo.headers["content-length"], "12")
    }

    func testNoContentResponseGivesVoid() async throws {
        try await client.request(PathEndpoint(path: "empty"))
        let result = await complete(PathEndpoint(method: .delete, path: "empty"))
        XCTAssertNoThrow(try result.get())
    }

    func testNon2xxCarriesStatusHeadersAndBody() async throws {
        let endpoint = PathEndpoint(
            path: "status", query: [.init(name: "code", value: "404"), .init(name: "body", value: "no such book")])
        do {
            try await client.request(endpoint)
            XCTFail("expected an error")
        } catch let EndpointKitError.unacceptableStatus(failure) {
            XCTAssertEqual(failure.statusCode, 404)
            XCTAssertEqual(failure.headers["X-Test"] ?? failure.headers["x-test"], "yes")
            XCTAssertEqual(failure.bodyText, "no such book")
            XCTAssertEqual(failure.method, "GET")
            XCTAssertTrue(failure.description.contains("HTTP 404"), failure.description)
            // The description is safe to log: the body by its size only.
            XCTAssertTrue(failure.description.hasSuffix("/status?code=REDACTED&body=REDACTED (12-byte body)"), failure.description)
            XCTAssertFalse(String(reflecting: failure).contains("no such book"), String(reflecting: failure))
        }
    }

    func testProblemDetailsAndHTMLErrorsAreReadable() async throws {
        let problem = await complete(PathEndpoint(path: "problem"))
        let failure = try XCTUnwrap(problem.error as? EndpointKitError)
        XCTAssertEqual(failure.statusCode, 422)
        guard case .unacceptableStatus(let problemFailure) = failure else { return XCTFail("\(failure)") }
        XCTAssertTrue(problemFailure.bodyText?.contains("title is empty") ?? false, failure.description)
        XCTAssertFalse(failure.description.contains("title is empty"), failure.description)

        let html = await complete(PathEndpoint(path: "html-error"))
        let htmlError = try XCTUnwrap(html.error as? EndpointKitError)
        XCTAssertEqual(htmlError.statusCode, 502)
        XCTAssertTrue(htmlError.description.contains("HTTP 502"), htmlError.description)
        XCTAssertFalse(htmlError.description.contains("<html>"), htmlError.description)
    }

    func testMalformedJSONIsADecodingFailure() async throws {
        do {
            _ = try await client.request(GetBook(path: "malformed"))
            XCTFail("expected an error")
        } catch let EndpointKitError.decodingFailed(failure) {
            XCTAssertEqual(failure.type, "Book")
            XCTAssertEqual(failure.statusCode, 200)
            XCTAssertTrue(failure.bodyText?.contains(#"{"id": 1, "title": "Du"#) ?? false, failure.description)
            XCTAssertFalse(failure.description.contains("Du"), failure.description)
            XCTAssertTrue(failure.description.contains("the body is not in the expected format"), failure.description)
        }
    }

    func testWrongShapeNamesTheCodingPath() async throws {
        do {
            _ = try await client.request(GetBook(path: "wrong-shape"))
            XCTFail("expected an error")
        } catch let EndpointKitError.decodingFailed(failure) {
            XCTAssertEqual(failure.codingPath, "author")
            XCTAssertTrue(failure.description.contains("key 'name' not found at 'author'"), failure.description)
        }
    }

    func testWrongContentTypeAndEmptyBodyAreNamed() async throws {
        let html = await complete(GetBook(path: "not-json"))
        let htmlError = try XCTUnwrap(html.error as? EndpointKitError)
        XCTAssertTrue(htmlError.description.contains("Content-Type is 'text/html'"), htmlError.description)

        let empty = await complete(GetBook(path: "empty-200"))
        let emptyError = try XCTUnwrap(empty.error as? EndpointKitError)
        XCTAssertTrue(emptyError.description.contains("the body is empty"), emptyError.description)
    }

    func testConnectionRefusedIsATransportError() async throws {
        let url = try await TestServer.stopped().baseURL
        let client = URLSessionClient(baseURL: url)
        defer { client.invalidate() }
        do {
            _ = try await client.request(GetBook())
            XCTFail("expected an error")
        } catch let EndpointKitError.transportFailed(failedURL, underlying) {
            XCTAssertEqual(failedURL?.port, url.port)
            XCTAssertEqual((underlying as? URLError)?.code, .cannotConnectToHost)
        }
    }

    func testMakeRequestErrorNamesTheEndpoint() async throws {
        let result = await complete(FailingEndpoint())
        guard case EndpointKitError.invalidRequest(let name, let underlying)? = result.error else {
            return XCTFail("unexpected \(String(describing: result.error))")
        }
        XCTAssertEqual(name, "FailingEndpoint")
        XCTAssertTrue(underlying is FailingEndpoint.Failure)
        XCTAssertTrue(server.requests.isEmpty)
    }

    func testInvalidatedClientFailsInsteadOfCrashing() async throws {
        client.invalidate(cancellingTasks: true)
        for _ in 0..<3 {
            do {
                _ = try await client.request(GetBook())
                XCTFail("expected an error")
            } catch EndpointKitError.clientInvalidated {}
            let result = await complete(GetBook())
            guard case EndpointKitError.clientInvalidated? = result.error else {
                return XCTFail("unexpected \(result)")
            }
        }
        client.invalidate()
    }

    /// Invalidating with `cancellingTasks` ends the calls in flight at once, with the transport's
    /// cancellation, and closes their connections; each call's task is cancelled on the
    /// session's delegate queue (not from the calling thread, where Foundation on Linux can
    /// crash when a cancel meets the task's completion).
    func testInvalidatingWithCancelEndsTheCallsInFlight() async throws {
        let (client, server) = (try XCTUnwrap(client), try XCTUnwrap(server))
        let calls = (0..<3).map { _ in Task { try await client.request(SlowEndpoint(seconds: 10)) } }
        let arrived = await waitUntil(timeout: 5) { server.requests.filter { $0.path == "/slow" }.count == 3 }
        XCTAssertTrue(arrived, "the calls did not reach the server")
        let start = Date()
        client.invalidate(cancellingTasks: true)
        for call in calls {
            await expectTransportFailure(name: "invalidated", .cancelled) { try await call.value }
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "the calls waited for their answers")
        let closed = await server.waitForDisconnect(of: "/slow", count: 3)
        XCTAssertTrue(closed, "the server still holds the connections")
    }

    #if canImport(FoundationNetworking)
        /// Foundation on Linux refuses a URL whose host is an IPv6 address before sending
        /// (swift-corelibs-foundation#5496): the error says so in words, not "error -1000".
        /// If the call succeeds, Foundation has the fix, and LinuxNotes.md's row can go.
        func testAnIPv6AddressInTheURLFailsInWords() async throws {
            let port = try XCTUnwrap(server.baseURL.port)
            let client = URLSessionClient(baseURL: try XCTUnwrap(URL(string: "http://[::1]:\(port)/")))
            defer { client.invalidate() }
            await expectTransportFailure(name: "URLSessionClient", .badURL, saying: "IPv6 address in the URL ([::1])") {
                _ = try await client.request(GetBook())
            }
        }
    #endif

    /// The configuration's cookie storage keeps what a response sets, and the next call sends
    /// it back; a configuration that neither sends nor accepts cookies sends none. On Linux
    /// the client itself keeps them, and Foundation's own reading of every header line is off.
    func testTheConfigurationsCookieStorageKeepsAndSendsCookies() async throws {
        // Not the shared storage, which the client on Linux replaces (see the next test). A
        // group's storage is a file there too: one name, emptied before and after.
        let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "EndpointKitTests")
        storage.deleteCookies(for: server.baseURL)
        defer { storage.deleteCookies(for: server.baseURL) }
        let configuration = URLSessionConfiguration.endpointKitDefault
        configuration.httpCookieStorage = storage
        let keeping = URLSessionClient(baseURL: server.baseURL, configuration: configuration)
        defer { keeping.invalidate() }
        _ = try await keeping.request(EchoEndpoint(path: "cookies/set", query: [URLQueryItem(name: "session", value: "c1")]))
        let later = try await keeping.request(EchoEndpoint())
        XCTAssertEqual(later.headers["cookie"], "session=c1")
        XCTAssertEqual(storage.cookies(for: server.baseURL)?.map(\.value), ["c1"])
        #if canImport(FoundationNetworking)
            XCTAssertNil(keeping.session.configuration.httpCookieStorage)
            XCTAssertEqual(keeping.session.configuration.httpCookieAcceptPolicy, .never)
        #endif

        let off = URLSessionConfiguration.endpointKitDefault
        off.httpCookieStorage = storage
        off.httpShouldSetCookies = false
        off.httpCookieAcceptPolicy = .never
        let ignoring = URLSessionClient(baseURL: server.baseURL, configuration: off)
        defer { ignoring.invalidate() }
        _ = try await ignoring.request(EchoEndpoint(path: "cookies/set", query: [URLQueryItem(name: "theme", value: "dark")]))
        let unsent = try await ignoring.request(EchoEndpoint())
        XCTAssertNil(unsent.headers["cookie"])
        XCTAssertEqual(storage.cookies(for: server.baseURL)?.map(\.value), ["c1"])
    }

    #if canImport(FoundationNetworking)
        /// On Linux `HTTPCookieStorage.shared` is a file that every program run from a folder of
        /// the same name shares: with the default configuration, which names it, the client keeps
        /// cookies in memory for itself. It sends them back, another client never sees them, and
        /// nothing reaches the shared storage, unless it is given as `cookieStorage`.
        func testTheDefaultClientKeepsCookiesInMemoryForItself() async throws {
            let shared = HTTPCookieStorage.shared
            shared.deleteCookies(for: server.baseURL)
            defer { shared.deleteCookies(for: server.baseURL) }
            let first = URLSessionClient(baseURL: server.baseURL)
            defer { first.invalidate() }
            _ = try await first.request(EchoEndpoint(path: "cookies/set", query: [URLQueryItem(name: "session", value: "m1")]))
            let later = try await first.request(EchoEndpoint())
            XCTAssertEqual(later.headers["cookie"], "session=m1")
            XCTAssertEqual(shared.cookies(for: server.baseURL)?.map(\.name) ?? [], [])

            let second = URLSessionClient(baseURL: server.baseURL)
            defer { second.invalidate() }
            let other = try await second.request(EchoEndpoint())
            XCTAssertNil(other.headers["cookie"])

            let asked = URLSessionClient(baseURL: server.baseURL, cookieStorage: shared)
            defer { asked.invalidate() }
            _ = try await asked.request(EchoEndpoint(path: "cookies/set", query: [URLQueryItem(name: "session", value: "s2")]))
            XCTAssertEqual(shared.cookies(for: server.baseURL)?.map(\.value), ["s2"])
            let still = try await first.request(EchoEndpoint())
            XCTAssertEqual(still.headers["cookie"], "session=m1")
        }
    #endif

    func testCompletionRunsOnTheGivenQueue() async throws {
        let queue = DispatchQueue(label: "test.completion")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let client = URLSessionClient(baseURL: server.baseURL, completionQueue: queue)
        defer { client.invalidate() }
        let onQueue = await withCheckedContinuation { continuation in
            client.request(GetBook()) { _ in continuation.resume(returning: DispatchQueue.getSpecific(key: key)) }
        }
        XCTAssertEqual(onQueue, 7)
    }

    /// Overriding the `async` method changes the call made with a completion handler too; the
    /// completion handler's `Progress` still counts the bytes.
    func testASubclassOverridesOneMethodForBothAPIs() async throws {
        final class CountingClient: URLSessionClient, @unchecked Sendable {
            let count = Locked(0)
            override func request<T: Endpoint>(_ endpoint: T) async throws -> T.Content {
                count.withLock { $0 += 1 }
                return try await super.request(endpoint)
            }
            override func download<T: DownloadEndpoint>(
                _ endpoint: T, progress: (@Sendable (TransferProgress) -> Void)?
            ) async throws -> T.Content {
                count.withLock { $0 += 10 }
                return try await super.download(endpoint, progress: progress)
            }
        }
        let client = CountingClient(baseURL: server.baseURL)
        defer { client.invalidate() }
        let asClient: any Client = client
        _ = try await asClient.request(GetBook())
        _ = await complete(GetBook(), on: client)
        XCTAssertEqual(client.count.withLock { $0 }, 2)

        let (result, progress): (Result<URL, any Error>, Progress) = await withCheckedContinuation { continuation in
            let box = Locked<Progress?>(nil)
            let started = client.download(Download(path: "books", count: 1)) { result in
                continuation.resume(returning: (result, box.withLock { $0 } ?? Progress(totalUnitCount: 0)))
            }
            box.withLock { $0 = started }
        }
        let file = try result.get()
        defer { try? FileManager.default.removeItem(at: file) }
        XCTAssertEqual(client.count.withLock { $0 }, 12)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        XCTAssertGreaterThan(size, 0)
        XCTAssertEqual(progress.completedUnitCount, Int64(size))
        XCTAssertEqual(progress.totalUnitCount, Int64(size))
    }
}
