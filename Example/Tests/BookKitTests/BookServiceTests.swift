import BookKit
import DemoServer
import EndpointKit
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

    func testUpdateReplacesTheFieldsAndAMissingBookIs404() async throws {
        let updated = try await books.update(id: 2, with: NewBook(title: "Solaris (1961)", author: "Stanisław Lem", year: 1961))
        XCTAssertEqual(updated, Book(id: 2, title: "Solaris (1961)", author: "Stanisław Lem", year: 1961))
        let fetched = try await books.book(id: 2)
        XCTAssertEqual(fetched, updated)
        do {
            _ = try await books.update(id: 99, with: NewBook(title: "x", author: "y"))
            XCTFail("expected a 404")
        } catch let error as APIError {
            XCTAssertEqual(error.status, 404)
        }
    }

    func testCoverUploadAndDownloadRoundTripWithProgress() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = directory.appendingPathComponent("cover.png")
        let bytes = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try bytes.write(to: original)
        let sent = Guarded<[Int64]>([])
        try await books.uploadCover(id: 3, from: original) { progress in
            if progress.direction == .upload { sent.withLock { $0.append(progress.completedBytes) } }
        }
        XCTAssertEqual(sent.withLock { $0.last }, Int64(bytes.count))
        XCTAssertEqual(sent.withLock { $0 }, sent.withLock { $0 }.sorted(), "upload progress is monotonic")

        let copy = directory.appendingPathComponent("copy.png")
        let holder = Guarded<Progress?>(nil)
        let saved: URL = try await withCheckedThrowingContinuation { continuation in
            holder.withLock { $0 = books.downloadCover(id: 3, to: copy) { continuation.resume(with: $0) } }
        }
        XCTAssertEqual(saved, copy)
        let progress = try XCTUnwrap(holder.withLock { $0 })
        XCTAssertEqual(try Data(contentsOf: copy), bytes)
        XCTAssertEqual(progress.completedUnitCount, Int64(bytes.count), "the completion API's Progress counts bytes")
    }

    func testACoverMustBeAnImage() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).txt")
        try Data("not an image".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try await books.uploadCover(id: 1, from: file, progress: nil)
            XCTFail("expected a 415")
        } catch let error as APIError {
            XCTAssertEqual(error.status, 415)
        }
    }
}

/// A value shared with `@Sendable` closures in tests.
final class Guarded<Value>: @unchecked Sendable {
    // Sound: every access goes through `lock`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
