@_spi(Transport) import EndpointKit
import Foundation
import XCTest

/// The memo of parsed URLs that building and resolving requests share: what it gives back is
/// what was kept for that very string, it keeps no failure, and it stays bounded.
final class ParsedURLsTests: XCTestCase {
    /// `string`'s URL as kept, or `nil`: a parse that must not run.
    private func kept(_ urls: ParsedURLs, _ string: String) -> URL? {
        urls.url(for: string) { nil }
    }

    func testAURLIsGivenBackOnlyForTheStringItWasKeptFor() throws {
        let urls = ParsedURLs()
        XCTAssertNil(kept(urls, "books"))
        let books = try XCTUnwrap(URL(string: "books"))
        XCTAssertEqual(urls.url(for: "books") { books }, books)
        XCTAssertEqual(kept(urls, "books"), books)
        XCTAssertEqual(urls.url(for: "books") { URL(string: "other") }, books)
        XCTAssertNil(kept(urls, "books/"))
        XCTAssertNil(kept(urls, "Books"))
    }

    func testAFailedParseIsNotKept() {
        let urls = ParsedURLs()
        XCTAssertNil(urls.url(for: "::") { nil })
        XCTAssertEqual(urls.url(for: "::") { URL(string: "later") }?.relativeString, "later")
    }

    func testAFullMemoStartsAgain() throws {
        let urls = ParsedURLs()
        for index in 0..<ParsedURLs.limit {
            _ = urls.url(for: "books/\(index)") { URL(string: "books/\(index)") }
        }
        XCTAssertEqual(kept(urls, "books/0")?.relativeString, "books/0")
        _ = urls.url(for: "authors") { URL(string: "authors") }
        XCTAssertNil(kept(urls, "books/0"))
        XCTAssertEqual(kept(urls, "authors")?.relativeString, "authors")
    }

    func testCopiesShareWhatIsKept() throws {
        let urls = ParsedURLs()
        let copy = urls
        _ = copy.url(for: "books") { URL(string: "books") }
        XCTAssertEqual(kept(urls, "books")?.relativeString, "books")
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
