import Foundation
import XCTest

@testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class URLRequestBuildingTests: ServerTestCase {
    func testReservedAndUnicodeQueryValuesArriveAsWritten() async throws {
        let values = [
            "a&b=c", "1+1=2", "50% off", "what?#frag", "path/with/slashes", "Stanisław Lem", "東京",
            "emoji 🚀", "semi;colon", "",
        ]
        let query = values.enumerated().map { URLQueryItem(name: "k\($0.offset)", value: $0.element) }
            + [URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "name with space", value: "x")]
        _ = try await client.request(EchoEndpoint(query: query))
        let received = try XCTUnwrap(server.requests.last)
        for (index, value) in values.enumerated() {
            XCTAssertEqual(received.queryItems["k\(index)"], value)
        }
        XCTAssertEqual(received.queryItems["flag"], "")
        XCTAssertEqual(received.queryItems["name with space"], "x")
        XCTAssertTrue(received.query?.contains("1%2B1%3D2") == true, received.query ?? "")
    }

    func testPathSegmentsArePercentEncoded() throws {
        let request = try URLRequest(.get, "books/war and peace/ünïcode")
        XCTAssertEqual(request.url?.relativeString, "books/war%20and%20peace/%C3%BCn%C3%AFcode")
        XCTAssertEqual(request.httpMethod, "GET")
    }

    func testAbsoluteURLsKeepTheirQueryAndGainTheNewOne() throws {
        let request = try URLRequest(.delete, "https://example.com/a?x=1", query: [.init(name: "y", value: "2 3")])
        XCTAssertEqual(request.url?.absoluteString, "https://example.com/a?x=1&y=2%203")
        XCTAssertEqual(request.httpMethod, "DELETE")
    }

    func testMethodIsUppercasedAndKnowsIdempotence() {
        XCTAssertEqual(HTTPMethod("patch"), .patch)
        XCTAssertTrue(HTTPMethod.put.isIdempotent)
        XCTAssertFalse(HTTPMethod.post.isIdempotent)
        XCTAssertFalse(HTTPMethod.patch.isIdempotent)
    }

    func testHeadersGivenToTheInitializerAreSent() async throws {
        let echo = try await client.request(EchoEndpoint(headers: ["X-Trace": "abc", "Accept": "application/json"]))
        XCTAssertEqual(echo.headers["x-trace"], "abc")
        XCTAssertEqual(echo.headers["accept"], "application/json")
    }
}
