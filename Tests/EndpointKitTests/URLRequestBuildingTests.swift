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

    /// An escape written into the path is kept, as it is in a hand-written query and in any URL
    /// string: an ID escaped by its caller (`a%2Fb`, an ID holding a `/`) reaches the server as
    /// written, not escaped twice (`a%252Fb`, another ID). A `%` that starts no escape is escaped.
    func testAnEscapeWrittenInThePathIsKept() async throws {
        let request = try URLRequest(.get, "files/a%2Fb c/100%/%zz/%C3%BC?q=%20")
        XCTAssertEqual(request.url?.relativeString, "files/a%2Fb%20c/100%25/%25zz/%C3%BC?q=%20")
        _ = try? await client.request(PathEndpoint(path: "files/a%2Fb/%E6%9D%B1"))
        XCTAssertEqual(server.requests.last?.uri, "/files/a%2Fb/%E6%9D%B1")
    }

    /// A `%` that starts no escape in a hand-written query is sent escaped: Foundation killed
    /// the process when the request was built ("Attempting to set percentEncodedQuery with
    /// invalid characters").
    func testAStrayPercentInAHandWrittenQueryIsEscaped() async throws {
        for (written, value) in [("q=50% off", "50% off"), ("q=%zz", "%zz"), ("q=100%", "100%"), ("q=%2", "%2")] {
            _ = try await client.request(EchoEndpoint(path: "echo?" + written))
            XCTAssertEqual(server.requests.last?.queryItems["q"], value, written)
        }
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

    /// EndpointKit's own way of setting fields behaves as Foundation's `setValue`: a field of the
    /// same name in any case is replaced, `nil` removes it, and a value that cannot be sent is
    /// dropped as Foundation drops it; a name that can be sent is kept as given. Read back with
    /// `field(named:)` in any case.
    func testSettingFieldsReplacesInAnyCaseAndDropsWhatCannotBeSent() throws {
        var request = try URLRequest(.get, "books", headers: ["X-Trace": "one", "Accept": "text/plain"])
        request.setFields([("x-TRACE", "two"), ("accept", nil), ("X-New", "new"), ("X-Bad", "a\r\nX-Injected: yes")])
        XCTAssertEqual(request.value(forHTTPHeaderField: "X-Trace"), "two")
        XCTAssertEqual(request.allHTTPHeaderFields?.keys.filter { $0.lowercased() == "x-trace" }, ["x-TRACE"])
        XCTAssertNil(request.value(forHTTPHeaderField: "Accept"))
        XCTAssertEqual(request.value(forHTTPHeaderField: "x-new"), "new")
        XCTAssertNil(request.value(forHTTPHeaderField: "X-Bad"))
        XCTAssertEqual(request.allHTTPHeaderFields?.count, 2, "\(request.allHTTPHeaderFields ?? [:])")
        request.setField(nil, named: "X-NEW")
        request.setField("sent", named: "Content-Type")
        XCTAssertEqual(request.allHTTPHeaderFields, ["x-TRACE": "two", "Content-Type": "sent"])
        // Read back in any case, as `value(forHTTPHeaderField:)` reads.
        for name in ["x-TRACE", "X-Trace", "x-trace", "content-type", "CONTENT-TYPE", "X-New", "X-Trac", "X-Tracé"] {
            XCTAssertEqual(request.field(named: name), request.value(forHTTPHeaderField: name), name)
        }
        XCTAssertEqual(request.field(named: "X-TRACE"), "two")
        XCTAssertNil(URLRequest(url: URL(fileURLWithPath: "/")).field(named: "Accept"))
    }
}
