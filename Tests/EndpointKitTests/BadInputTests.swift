import Foundation
import XCTest

@testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every kind of bad input ends in a typed, readable error: no crash, no hang.
final class BadInputTests: ServerTestCase {
    let faults = FaultRoutes()
    override var routes: TestServer.Handler { faults.handler }

    struct Raw: Endpoint {
        typealias Content = Data
        let path: String
        func makeRequest() throws -> URLRequest { try URLRequest(.get, path) }
        func content(from response: URLResponse?, with body: Data) throws -> Data { body }
    }

    struct BreakingAdapter: RequestAdapter {
        func adapt(_ request: URLRequest) throws -> URLRequest {
            var request = request
            request.url = URL(string: "notascheme://nowhere/x")
            return request
        }
    }

    func testAnInvalidURLIsNamed() async throws {
        let result = await complete(PathEndpoint(path: "http://[::1"))
        guard case EndpointKitError.invalidRequest(_, EndpointKitError.invalidURL(let text))? = result.error else {
            return XCTFail("unexpected \(result)")
        }
        XCTAssertEqual(text, "http://[::1")
    }

    func testAnAdapterProducingAnInvalidRequestFailsClearly() async throws {
        let client = URLSessionClient(requestAdapter: BreakingAdapter())
        defer { client.invalidate() }
        let result = await complete(PathEndpoint(path: "x"), on: client)
        guard case EndpointKitError.transportFailed(let url, let underlying)? = result.error else {
            return XCTFail("unexpected \(result)")
        }
        XCTAssertEqual(url?.scheme, "notascheme")
        XCTAssertEqual((underlying as? URLError)?.code, .unsupportedURL)
    }

    func testAnEmptyErrorBodyReadsAsSuch() async throws {
        let result = await complete(PathEndpoint(path: "status", query: [.init(name: "code", value: "500")]))
        let error = try XCTUnwrap(result.error as? EndpointKitError)
        XCTAssertTrue(error.description.hasSuffix("(empty body)"), error.description)
    }

    func testAResetConnectionIsATransportError() async throws {
        let result = await complete(PathEndpoint(path: "reset"))
        guard case EndpointKitError.transportFailed(_, let underlying)? = result.error else {
            return XCTFail("unexpected \(result)")
        }
        XCTAssertEqual((underlying as? URLError)?.code, .networkConnectionLost)
    }

    func testATenMegabyteHeaderBlockFailsWithoutCrashing() async throws {
        let result = await complete(Raw(path: "huge-header"))
        switch result {
        case .success(let body): XCTAssertEqual(body, Data("{}".utf8))
        case .failure(let error): XCTAssertTrue(error is EndpointKitError, "\(error)")
        }
    }

    func testAHugeDeclaredLengthIsRefusedBeforeReading() async throws {
        let started = Date()
        let result = await complete(Raw(path: "huge-length"))
        guard case EndpointKitError.bodyTooLarge(let url, let limit)? = result.error else {
            return XCTFail("unexpected \(result)")
        }
        XCTAssertEqual(limit, 100 << 20)
        XCTAssertEqual(url?.path, "/huge-length")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }

    func testABodyLargerThanTheLimitIsCutWithOrWithoutALength() async throws {
        let client = URLSessionClient(baseURL: server.baseURL, maximumBodySize: 100_000)
        defer { client.invalidate() }
        for path in ["books", "chunked-big"] {
            let result = await complete(Raw(path: path), on: client)
            if path == "books" {
                XCTAssertNoThrow(try result.get())
            } else {
                guard case EndpointKitError.bodyTooLarge(_, 100_000)? = result.error else { return XCTFail("unexpected \(result)") }
            }
        }
    }
}
