import Foundation
import XCTest

@testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An error's description is safe to log and to record in a trace: no URL credentials, no query
/// value, no body byte, however it is printed, on every path a real call fails by.
final class ErrorRedactionTests: ServerTestCase {
    let faults = FaultRoutes()
    override var routes: TestServer.Handler { faults.handler }

    static let secrets = ["s3cr3t-user", "s3cr3t-pass", "s3cr3t-key", "s3cr3t-token", "s3cr3t-body", "s3cr3t-frag"]

    /// Every way a program prints an error.
    func assertSafe(_ error: (any Error)?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let error else { return XCTFail("\(what): no error", file: file, line: line) }
        let printed = [String(describing: error), String(reflecting: error), "\(error)", error.localizedDescription].joined(separator: "\n")
        for secret in Self.secrets {
            XCTAssertFalse(printed.contains(secret), "\(what): \(secret) in \(printed)", file: file, line: line)
        }
    }

    func testURLsAreRedactedTheWayOpenTelemetryAsks() throws {
        let url = try XCTUnwrap(URL(string: "https://s3cr3t-user:s3cr3t-pass@api.test:8443/v1/books?api_key=s3cr3t-key&s3cr3t-token&page=2#s3cr3t-frag"))
        XCTAssertEqual(url.redactedDescription, "https://REDACTED:REDACTED@api.test:8443/v1/books?api_key=REDACTED&REDACTED&page=REDACTED")
        XCTAssertEqual(URL(string: "https://s3cr3t-token@api.test/x")?.redactedDescription, "https://REDACTED:REDACTED@api.test/x")
        XCTAssertEqual(URL(string: "http://127.0.0.1:80/plain/path")?.redactedDescription, "http://127.0.0.1:80/plain/path")
        // Text that is no URL at all keeps the same promise.
        XCTAssertEqual(URL.redacted("http://s3cr3t-user:s3cr3t-pass@[::1/x?key=s3cr3t-key"), "http://REDACTED:REDACTED@[::1/x?REDACTED")
        XCTAssertEqual(URL.redacted("[::1]/x#s3cr3t-frag"), "[::1]/x")
        XCTAssertEqual(
            EndpointKitError.invalidURL("http://s3cr3t-user:s3cr3t-pass@[::1?k=s3cr3t-key").description,
            "Invalid URL 'http://REDACTED:REDACTED@[::1?REDACTED'")
    }

    func testEveryCaseDescribesItsURLRedactedAndNoBody() throws {
        let url = try XCTUnwrap(URL(string: "http://s3cr3t-user:s3cr3t-pass@host.test/x?api_key=s3cr3t-key#s3cr3t-frag"))
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        let response = try XCTUnwrap(HTTPURLResponse(url: url, statusCode: 500, httpVersion: "HTTP/1.1", headerFields: ["Set-Cookie": "s=s3cr3t-token"]))
        let body = Data("s3cr3t-body".utf8)
        let failure = HTTPFailure(request: request, response: response, body: body)
        let decoding = DecodingFailure(
            type: "Book", url: url, statusCode: 200, contentType: "application/json",
            underlying: DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Cannot initialize Kind from invalid String value s3cr3t-body")),
            body: body)
        let urlError = URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: url])
        let errors: [EndpointKitError] = [
            .transportFailed(url: url, underlying: urlError), .unacceptableStatus(failure), .decodingFailed(decoding),
            .invalidResponse(url: url), .redirectRefused(url: url, reason: "more than 20 redirects"), .notCached(url: url),
            .timedOut(url: url, limit: 1), .bodyTooLarge(url: url, limit: 10), .consumerTooSlow(url: url, limit: 10),
            .retrying(attempt: 1, delay: 0.1, underlying: EndpointKitError.unacceptableStatus(failure)),
            .webSocketUnsupported(url: url, reason: "no"), .webSocketClosed(url: url, code: nil),
            .invalidRequest(endpoint: "E", underlying: EndpointKitError.invalidURL(url.absoluteString)),
        ]
        for error in errors {
            assertSafe(error, "\(error)")
            XCTAssertTrue(error.description.contains("http://REDACTED:REDACTED@host.test/x?api_key=REDACTED") || error.description.contains("'http://REDACTED:REDACTED@host.test/x?REDACTED'"), error.description)
        }
        // The values themselves keep what the description leaves out.
        XCTAssertEqual(failure.bodyText, "s3cr3t-body")
        XCTAssertEqual(failure.url, url)
        XCTAssertEqual(decoding.bodyText, "s3cr3t-body")
        XCTAssertEqual(failure.description, "HTTP 500 (Internal Server Error) from POST http://REDACTED:REDACTED@host.test/x?api_key=REDACTED (11-byte body)")
    }

    /// Each way a real call fails, with the secrets in the URL's user info, its query, and the
    /// server's body.
    func testRealFailuresNameNoSecret() async throws {
        let port = server.port
        let base = try XCTUnwrap(URL(string: "http://s3cr3t-user:s3cr3t-pass@127.0.0.1:\(port)"))
        let client = URLSessionClient(baseURL: base, retryPolicy: .fast, timeout: 0.5)
        defer { client.invalidate(cancellingTasks: true) }
        let key = URLQueryItem(name: "api_key", value: "s3cr3t-key")
        let statuses = [404, 418, 500]
        for status in statuses {
            let endpoint = PathEndpoint(path: "status", query: [.init(name: "code", value: "\(status)"), .init(name: "body", value: "s3cr3t-body"), key])
            let result = await complete(endpoint, on: client)
            XCTAssertEqual((result.error as? EndpointKitError)?.statusCode, status)
            assertSafe(result.error, "HTTP \(status)")
        }
        let decoding = await complete(GetBook(path: "malformed?api_key=s3cr3t-key"), on: client)
        assertSafe(decoding.error, "decoding")
        let timeout = await complete(PathEndpoint(path: "stall-body", query: [key]), on: client)
        XCTAssertNotNil(timeout.error)
        assertSafe(timeout.error, "timeout")
        let stopped = try await TestServer.start(Routes.standard)
        let closed = stopped.port
        await stopped.shutdown()
        let refusedClient = URLSessionClient(baseURL: try XCTUnwrap(URL(string: "http://s3cr3t-user:s3cr3t-pass@127.0.0.1:\(closed)")))
        defer { refusedClient.invalidate() }
        let refused = await complete(PathEndpoint(path: "x", query: [key]), on: refusedClient)
        guard case EndpointKitError.transportFailed(_, let underlying)? = refused.error, let urlError = underlying as? URLError else {
            return XCTFail("\(String(describing: refused.error))")
        }
        assertSafe(refused.error, "refused")
        // Foundation's error inside, as Telemetry.md says: its words and code are safe; its
        // description writes the failing URL as it was.
        for secret in Self.secrets {
            XCTAssertFalse(urlError.localizedDescription.contains(secret), urlError.localizedDescription)
        }
        XCTAssertEqual(urlError.code, .cannotConnectToHost)
        XCTAssertTrue("\(urlError)".contains("s3cr3t-pass"), "the underlying error's description no longer holds the URL: \(urlError)")
    }
}
