@_spi(Transport) import EndpointKit
import Foundation
import XCTest

/// The memo of parsed URLs that building and resolving requests share: what it gives back is
/// what was kept for that very string, it keeps no failure, and it stays bounded.
final class ParsedURLsTests: XCTestCase {
    func testAURLIsGivenBackOnlyForTheStringItWasKeptFor() throws {
        let urls = ParsedURLs()
        XCTAssertNil(urls.url(for: "books"))
        let books = try XCTUnwrap(URL(string: "books"))
        XCTAssertEqual(urls.keep(books, for: "books"), books)
        XCTAssertEqual(urls.url(for: "books"), books)
        XCTAssertNil(urls.url(for: "books/"))
        XCTAssertNil(urls.url(for: "Books"))
    }

    func testAFailedParseIsNotKept() {
        let urls = ParsedURLs()
        XCTAssertNil(urls.keep(nil, for: "::"))
        XCTAssertNil(urls.url(for: "::"))
    }

    func testAFullMemoStartsAgain() throws {
        let urls = ParsedURLs()
        for index in 0..<ParsedURLs.limit {
            _ = urls.keep(URL(string: "books/\(index)"), for: "books/\(index)")
        }
        XCTAssertEqual(urls.url(for: "books/0")?.relativeString, "books/0")
        _ = urls.keep(URL(string: "authors"), for: "authors")
        XCTAssertNil(urls.url(for: "books/0"))
        XCTAssertEqual(urls.url(for: "authors")?.relativeString, "authors")
    }

    func testCopiesShareWhatIsKept() throws {
        let urls = ParsedURLs()
        let copy = urls
        _ = copy.keep(URL(string: "books"), for: "books")
        XCTAssertEqual(urls.url(for: "books")?.relativeString, "books")
    }

    /// Many paths built side by side, each more than once: each request has its own path's URL.
    func testRequestsBuiltSideBySideEachGetTheirOwnURL() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for round in 0..<200 {
                        let path = "books/\((task * 7 + round) % 100)"
                        let request = try URLRequest(.get, path)
                        XCTAssertEqual(request.url?.relativeString, path)
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
