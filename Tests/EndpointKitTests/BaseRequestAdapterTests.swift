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
}
