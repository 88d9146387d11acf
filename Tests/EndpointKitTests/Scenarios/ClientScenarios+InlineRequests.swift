import EndpointKit
import XCTest

/// Calls described inline (``Request``) instead of by a named endpoint type. This file imports
/// EndpointKit alone, no Foundation: `URLQueryItem`, `URL` and the rest must come with it.
extension ClientScenarios {
    var inlineRequestScenarios: [(String, @Sendable (TestServer, FaultRoutes) async throws -> Void)] {
        [("inline requests", inlineRequests)]
    }

    func inlineRequests(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(retryPolicy: .fast)) { client in
            let books = try await client.request(.get("books", as: [Book].self))
            XCTAssertEqual(books, Routes.books, name)
            let book: Book = try await client.request(.get("books/1"))
            XCTAssertEqual(book, Routes.books[0], name)

            let completed: [Book] = try await withCheckedThrowingContinuation { continuation in
                client.request(.get("books", as: [Book].self)) { continuation.resume(with: $0) }
            }
            XCTAssertEqual(completed, Routes.books, name)

            for method in [HTTPMethod.post, .put, .patch] {
                let echo = try await client.request(
                    .call(method, "echo", query: [URLQueryItem(name: "q", value: "a b")], headers: ["X-Trace": "7"],
                          body: ["title": "Dune"], as: Echo.self))
                XCTAssertEqual(echo.method, method.rawValue, name)
                XCTAssertEqual(echo.body, #"{"title":"Dune"}"#, name)
                XCTAssertEqual(echo.headers["content-type"], "application/json", name)
                XCTAssertEqual(echo.headers["x-trace"], "7", name)
                XCTAssertEqual(echo.query, "q=a%20b", name)
            }
            let posted = try await client.request(.post("echo", body: Routes.books[0], as: Echo.self))
            XCTAssertEqual(try JSONDecoder().decode(Book.self, from: Data(posted.body.utf8)), Routes.books[0], name)
            let bare = try await client.request(.post("echo", as: Echo.self))
            XCTAssertEqual(bare.bodyLength, 0, name)
            XCTAssertNil(bare.headers["content-type"].flatMap { $0 == "application/json" ? $0 : nil }, name)

            // Nothing to decode: only the status counts.
            try await client.request(.delete("empty"))
            try await client.request(.post("empty", body: ["a": 1]))
            // An optional type reads an empty answer (204) as nil; any other type fails on it.
            let none = try await client.request(.get("empty", as: Book?.self))
            XCTAssertNil(none, name)
            struct MaybeBook: JSONEndpoint {
                typealias Content = Book?
                func makeRequest() throws -> URLRequest { try URLRequest(.get, "empty") }
            }
            let noBook = try await client.request(MaybeBook())
            XCTAssertNil(noBook, name)
            let someBook = try await client.request(.get("books/1", as: Book?.self))
            XCTAssertEqual(someBook, Routes.books[0], name)
            do {
                _ = try await client.request(.get("empty", as: Book.self))
                XCTFail("\(name): an empty body decoded as a Book")
            } catch EndpointKitError.decodingFailed {}

            // The client's retry policy and its errors apply as to any endpoint.
            let attempt = try await client.request(.get("flaky?fail=2&key=inline", as: Attempt.self))
            XCTAssertEqual(attempt.attempt, 3, name)
            do {
                try await client.request(.delete("status", query: [URLQueryItem(name: "code", value: "404")]))
                XCTFail("\(name): expected an error")
            } catch let EndpointKitError.unacceptableStatus(failure) {
                XCTAssertEqual(failure.statusCode, 404, name)
            }
            do {
                _ = try await client.request(.get("wrong-shape", as: Book.self))
                XCTFail("\(name): expected an error")
            } catch let EndpointKitError.decodingFailed(failure) {
                XCTAssertEqual(failure.codingPath, "author", name)
            }

            // An API's own error type, through a validation of its own.
            struct Teapot: Error {}
            let teapot = Request<Void>.call(.get, "status", query: [URLQueryItem(name: "code", value: "418")])
                .validating { _, response, data in
                    if response.statusCode == 418, data == Data() { throw Teapot() }
                }
            do {
                try await client.request(teapot)
                XCTFail("\(name): expected an error")
            } catch is Teapot {}

            // A download in one line, with progress.
            let reports = ProgressLog()
            let file = try await client.download(.file("bytes", query: [URLQueryItem(name: "count", value: "300000")]), progress: reports.handler)
            defer { try? FileManager.default.removeItem(at: file) }
            XCTAssertEqual(try Data(contentsOf: file).count, 300_000, name)
            XCTAssertEqual(reports.reports.last?.completedBytes, 300_000, name)

            // Per-call settings are plain properties.
            var slow = Request<Void>.call(.get, "stall-body")
            slow.timeout = 0.3
            slow.retryPolicy = RetryPolicy.none
            do {
                try await client.request(slow)
                XCTFail("\(name): expected a timeout")
            } catch let EndpointKitError.timedOut(_, limit) {
                XCTAssertEqual(limit, 0.3, name)
            }
        }
    }
}
