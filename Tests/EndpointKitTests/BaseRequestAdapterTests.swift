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
            // A network-path reference keeps its host (it lost it before: `…/v1`).
            ("https://api.example.com/v1", "//cdn.example.com/img/1", "https://cdn.example.com/img/1"),
        ]
        for (base, path, expected) in cases {
            let adapter = BaseRequestAdapter(baseURL: try XCTUnwrap(URL(string: base)))
            let request = try adapter.adapt(try URLRequest(.get, path))
            XCTAssertEqual(request.url?.absoluteString, expected, "\(base) + \(path)")
        }
    }

    /// The adapter keeps the URLs it joined, by path, to skip parsing them again: each path,
    /// asked for again after 150 others (more than it keeps) or from a copy of the adapter,
    /// still gets its own URL, and `/p` the same as `p`.
    func testAPathAskedForAgainGetsItsOwnURL() throws {
        let adapter = BaseRequestAdapter(baseURL: try XCTUnwrap(URL(string: "https://api.example.com/v1")))
        let copy = adapter
        for round in 0..<3 {
            for index in 0..<150 {
                let path = round == 1 ? "/books/\(index)" : "books/\(index)"
                let request = try (index % 2 == 0 ? adapter : copy).adapt(try URLRequest(.get, path))
                XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/v1/books/\(index)", "round \(round)")
            }
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

    /// A default header never replaces the request's own field, whatever the case of either
    /// name; the defaults it lacks are added.
    func testADefaultHeaderKeepsTheRequestsOwnInAnyCase() throws {
        let base = try XCTUnwrap(URL(string: "https://api.example.com/v1"))
        let adapter = BaseRequestAdapter(baseURL: base, headers: ["X-Token": "default", "Accept-Language": "fr", "x-trace": "t"])
        var request = try URLRequest(.get, "books")
        request.setValue("own", forHTTPHeaderField: "x-TOKEN")
        request.setValue("mine", forHTTPHeaderField: "X-TRACE")
        let adapted = try adapter.adapt(request)
        XCTAssertEqual(adapted.value(forHTTPHeaderField: "X-Token"), "own")
        XCTAssertEqual(adapted.value(forHTTPHeaderField: "x-trace"), "mine")
        XCTAssertEqual(adapted.value(forHTTPHeaderField: "accept-language"), "fr")
        XCTAssertEqual(adapted.allHTTPHeaderFields?.count, 3, "\(adapted.allHTTPHeaderFields ?? [:])")
        let bare = try adapter.adapt(try URLRequest(.get, "books"))
        XCTAssertEqual(bare.allHTTPHeaderFields?.count, 3, "\(bare.allHTTPHeaderFields ?? [:])")
        XCTAssertEqual(bare.value(forHTTPHeaderField: "X-Token"), "default")
        XCTAssertEqual(bare.value(forHTTPHeaderField: "X-Trace"), "t")
        // Two defaults of one name in different cases make one field, with or without fields of its own.
        let twice = BaseRequestAdapter(baseURL: base, headers: ["X-Dup": "a", "x-dup": "b"])
        var own = try URLRequest(.get, "books")
        own.setField("1", named: "X-Own")
        for request in [try URLRequest(.get, "books"), own] {
            let fields = try twice.adapt(request).allHTTPHeaderFields ?? [:]
            XCTAssertEqual(fields.keys.filter { $0.lowercased() == "x-dup" }.count, 1, "\(fields)")
        }
    }

    /// A base URL without a scheme (a host written bare, or `localhost:8080`, which reads as the
    /// scheme `localhost`) or without a host (`https://` from an unset variable) fails each call
    /// with a relative path, saying why; resolved, `https://` + `books` went to the host `books`.
    /// An absolute request URL does not need the base.
    func testABaseURLWithoutASchemeOrHostFailsEachRelativeCall() async throws {
        let cases = [
            ("api.example.com/v1", "no scheme"), ("localhost:8080", "no scheme"), ("http//example.com", "no scheme"),
            ("https://", "no host"), ("http:///v1", "no host"),
        ]
        for (base, reason) in cases {
            let adapter = BaseRequestAdapter(baseURL: try XCTUnwrap(URL(string: base)))
            XCTAssertThrowsError(try adapter.adapt(try URLRequest(.get, "books")), base) { error in
                XCTAssertEqual((error as? InvalidBaseURL)?.baseURL.absoluteString, base)
                XCTAssertTrue("\(error)".contains(reason), "\(base): \(error)")
            }
            let absolute = try adapter.adapt(URLRequest(url: try XCTUnwrap(URL(string: "https://other.example/x"))))
            XCTAssertEqual(absolute.url?.absoluteString, "https://other.example/x", base)
            let client = URLSessionClient(baseURL: try XCTUnwrap(URL(string: base)))
            do {
                _ = try await client.request(.get("books", as: String.self))
                XCTFail("\(base): sent")
            } catch EndpointKitError.requestAdapterFailed(let name, let underlying as InvalidBaseURL) {
                XCTAssertEqual(name, "BaseRequestAdapter", base)
                XCTAssertTrue(underlying.reason.contains(reason), base)
            }
        }
        for base in ["https://api.example.com/v1?key=k", "unix:///var/run/app.sock", "wss://stream.example.com"] {
            XCTAssertNoThrow(try BaseRequestAdapter(baseURL: try XCTUnwrap(URL(string: base))).adapt(try URLRequest(.get, "books")), base)
        }
    }
}
