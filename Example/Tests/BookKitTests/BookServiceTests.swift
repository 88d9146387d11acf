import BookKit
import DemoServer
import EndpointKit
import Foundation
import XCTest

final class BookServiceTests: XCTestCase {
    var server: DemoServer!
    var client: URLSessionClient!
    var books: BookServiceClient!

    override func setUp() async throws {
        server = try await DemoServer.start()
        client = URLSessionClient(baseURL: server.baseURL)
        books = BookServiceClient(client: client)
    }

    override func tearDown() async throws {
        client.invalidate()
        await server.stop()
    }

    func testListsTheSeededBooksWithBothAPIs() async throws {
        let listed = try await books.fetchBooks()
        XCTAssertEqual(listed.map(\.title), DemoServer.seed.map(\.title))
        let viaCompletion = try await withCheckedThrowingContinuation { continuation in
            books.fetchBooks { continuation.resume(with: $0) }
        }
        XCTAssertEqual(viaCompletion, listed)
    }

    func testPaging() async throws {
        let first = try await books.fetchBooks(page: 1, perPage: 3)
        let second = try await books.fetchBooks(page: 2, perPage: 3)
        XCTAssertEqual(first.count, 3)
        XCTAssertEqual(second.map(\.id), [4])
    }

    func testCreateGetDelete() async throws {
        let created = try await books.create(NewBook(title: "Neuromancer", author: "William Gibson", year: 1984))
        let fetched = try await books.book(id: created.id)
        XCTAssertEqual(fetched, created)
        try await books.delete(id: created.id)
        do {
            _ = try await books.book(id: created.id)
            XCTFail("the book should be gone")
        } catch let error as APIError {
            XCTAssertEqual(error.status, 404)
            XCTAssertEqual(error.error, "no book with id \(created.id)")
        }
    }

    func testInvalidInputIsTheServersMessage() async throws {
        do {
            _ = try await books.create(NewBook(title: "", author: "Nobody"))
            XCTFail("expected an error")
        } catch let error as APIError {
            XCTAssertEqual(error.status, 422)
            XCTAssertEqual(error.error, "title must not be empty")
        }
    }

    func testFollowingTheLiveFeed() async throws {
        var titles: [String] = []
        for try await book in books.followBooks() {
            titles.append(book.title)
            if titles.count == 2 { break }
        }
        XCTAssertEqual(titles, ["Dune", "Solaris"])
    }
}
