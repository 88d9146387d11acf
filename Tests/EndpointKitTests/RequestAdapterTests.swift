import Foundation
import XCTest

@testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class RequestAdapterTests: ServerTestCase {
    struct Header: RequestAdapter {
        let name: String
        let value: String
        func adapt(_ request: URLRequest) async throws -> URLRequest {
            var request = request
            let old = request.value(forHTTPHeaderField: name)
            request.setValue(old.map { $0 + "," + value } ?? value, forHTTPHeaderField: name)
            return request
        }
    }

    struct Broken: RequestAdapter {
        struct Failure: Error, CustomStringConvertible { var description: String { "no token" } }
        func adapt(_ request: URLRequest) throws -> URLRequest { throw Failure() }
    }

    func testBaseAdapterAppendsPathsToTheBasePath() throws {
        let cases: [(String, String, String)] = [
            ("https://api.example.com/v1", "books/1", "https://api.example.com/v1/books/1"),
            ("https://api.example.com/v1/", "books/1", "https://api.example.com/v1/books/1"),
            ("https://api.example.com/v1", "/books/1", "https://api.example.com/v1/books/1"),
            ("https://api.example.com", "books", "https://api.example.com/books"),
            ("https://api.example.com/v1?key=k", "books?page=2", "https://api.example.com/v1/books?key=k&page=2"),
            ("https://api.example.com/v1", "https://other.example.com/x", "https://other.example.com/x"),
        ]
        for (base, path, expected) in cases {
            let adapter = BaseRequestAdapter(baseURL: URL(string: base)!)
            let request = try adapter.adapt(URLRequest(.get, path))
            XCTAssertEqual(request.url?.absoluteString, expected, "\(base) + \(path)")
        }
    }

    func testBaseAdapterAddsDefaultHeadersWithoutReplacing() async throws {
        let adapter = BaseRequestAdapter(
            baseURL: server.baseURL.appendingPathComponent("api/v1"),
            headers: ["User-Agent": "EndpointKitTests", "Accept-Language": "fr"])
        let client = URLSessionClient(requestAdapter: adapter)
        defer { client.invalidate() }
        let echo = try await client.request(EchoEndpoint(headers: ["Accept-Language": "pl"]))
        XCTAssertEqual(echo.path, "/api/v1/echo")
        XCTAssertEqual(echo.headers["user-agent"], "EndpointKitTests")
        XCTAssertEqual(echo.headers["accept-language"], "pl")
    }

    func testChainRunsAdaptersInOrder() async throws {
        let chain = RequestAdapterChain([
            BaseRequestAdapter(baseURL: server.baseURL), Header(name: "X-Order", value: "1"),
            Header(name: "X-Order", value: "2"), Header(name: "X-Order", value: "3"),
        ])
        let client = URLSessionClient(requestAdapter: chain)
        defer { client.invalidate() }
        let echo = try await client.request(EchoEndpoint())
        XCTAssertEqual(echo.headers["x-order"], "1,2,3")
    }

    func testAdapterErrorNamesTheAdapterAndSendsNothing() async throws {
        let chain = RequestAdapterChain([BaseRequestAdapter(baseURL: server.baseURL), Broken()])
        let client = URLSessionClient(requestAdapter: chain, responseObserver: observed.observer)
        defer { client.invalidate() }
        for useAsync in [true, false] {
            let result: Result<Echo, any Error>
            if useAsync {
                do { result = .success(try await client.request(EchoEndpoint())) } catch { result = .failure(error) }
            } else {
                result = await complete(EchoEndpoint(), on: client)
            }
            guard case EndpointKitError.requestAdapterFailed(let name, let underlying)? = result.error else {
                return XCTFail("unexpected \(result)")
            }
            XCTAssertEqual(name, "Broken")
            XCTAssertTrue(underlying is Broken.Failure)
            XCTAssertEqual(result.error.map { "\($0)" }, "Request adapter Broken failed: no token")
        }
        XCTAssertTrue(server.requests.isEmpty)
        XCTAssertEqual(observed.calls.count, 2)
        XCTAssertNotNil(observed.calls.first?.request, "the observer gets the request as built")
    }
}
