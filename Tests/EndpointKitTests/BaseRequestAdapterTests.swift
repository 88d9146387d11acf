import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The base URL joins relative paths the same way whichever route it takes (plain string join
/// for a base without query, components otherwise).
final class BaseURLJoiningTests: XCTestCase {
    func testEveryBaseAndPathShapeJoinsAsExpected() throws {
        let cases: [(base: String, path: String, expected: String)] = [
            ("https://api.example.com", "books/1", "https://api.example.com/books/1"),
            ("https://api.example.com/", "books/1", "https://api.example.com/books/1"),
            ("https://api.example.com/v1", "/books", "https://api.example.com/v1/books"),
            ("https://api.example.com/v1/", "books?page=2", "https://api.example.com/v1/books?page=2"),
            ("https://api.example.com/v1?key=k", "books?page=2", "https://api.example.com/v1/books?key=k&page=2"),
            ("https://api.example.com/v1", "a b/ü", "https://api.example.com/v1/a%20b/%C3%BC"),
            ("http://127.0.0.1:8080", "books/feed", "http://127.0.0.1:8080/books/feed"),
        ]
        for (base, path, expected) in cases {
            let adapter = BaseRequestAdapter(baseURL: try XCTUnwrap(URL(string: base)))
            let request = try adapter.adapt(try URLRequest(.get, path))
            XCTAssertEqual(request.url?.absoluteString, expected, "\(base) + \(path)")
        }
    }

    /// A default header that cannot be sent fails each request it would join, naming the
    /// field; Foundation would drop a value with a line break without a word.
    func testADefaultHeaderThatCannotBeSentFailsTheRequest() throws {
        let base = try XCTUnwrap(URL(string: "https://api.example.com/v1"))
        for headers in [["X-Token": "s3cret\r\nX-Injected: yes"], ["X-Bad Name": "ok"], ["": "ok"]] {
            let adapter = BaseRequestAdapter(baseURL: base, headers: headers)
            XCTAssertThrowsError(try adapter.adapt(try URLRequest(.get, "books"))) { error in
                XCTAssertEqual((error as? InvalidHeaderField)?.name, headers.keys.first, "\(headers.keys)")
                XCTAssertFalse("\(error)".contains("s3cret"))
            }
        }
        let fine = BaseRequestAdapter(baseURL: base, headers: ["X-Token": "abc def", "Accept-Language": "fr-CH, fr;q=0.9"])
        XCTAssertEqual(try fine.adapt(try URLRequest(.get, "books")).value(forHTTPHeaderField: "X-Token"), "abc def")
    }
}
