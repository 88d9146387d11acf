import BookKit
import DemoServer
import EndpointKit
import XCTest

/// The demo server's book routes send `ETag` and `Cache-Control`, so a client with a cache
/// answers repeated reads without asking, revalidates them with `304`, and drops them on writes.
final class BookServiceCachingTests: XCTestCase {
    func testReadsAreCachedRevalidatedAndInvalidated() async throws {
        let server = try await DemoServer.start()
        let now = Locked(Date())
        let cache = HTTPCache(clock: { now.value })
        let client = URLSessionClient(baseURL: server.baseURL, cache: cache)
        let books = BookServiceClient(client: client)

        let first = try await books.fetchBooks()
        let second = try await books.fetchBooks()
        XCTAssertEqual(second, first)
        XCTAssertEqual(cache.statistics.networkRequests, 1, "the second read is a fresh hit")
        now.value += TimeInterval(DemoServer.freshness + 1)
        let third = try await books.fetchBooks()
        XCTAssertEqual(third, first)
        XCTAssertEqual(cache.statistics.revalidated, 1, "the stale read is revalidated with a 304")
        _ = try await books.book(id: 1)
        _ = try await books.update(id: 1, with: NewBook(title: "Dune Messiah", author: "Frank Herbert", year: 1969))
        let updated = try await books.book(id: 1)
        XCTAssertEqual(updated.title, "Dune Messiah", "the update dropped the stored book")
        XCTAssertEqual(cache.statistics.networkRequests, 4, "the PUT is no cache request; the read after it is")

        client.invalidate()
        await server.stop()
    }
}

/// A value behind a lock, for the test clock.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
