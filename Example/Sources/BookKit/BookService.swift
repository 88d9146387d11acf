import EndpointKit
import Foundation

/// The book API as the rest of an app sees it, with both completion-handler and async methods.
public protocol BookService: Sendable {
    /// Lists the first page of books.
    @discardableResult
    func fetchBooks(completion: @escaping @Sendable (Result<[Book], any Error>) -> Void) -> Progress
    /// Lists the first page of books.
    func fetchBooks() async throws -> [Book]
    /// Lists one page of books.
    func fetchBooks(page: Int, perPage: Int) async throws -> [Book]
    /// Gets one book.
    func book(id: Int) async throws -> Book
    /// Creates a book and returns it with its identifier.
    func create(_ book: NewBook) async throws -> Book
    /// Deletes a book.
    func delete(id: Int) async throws
    /// Books as the server announces them, live, until the server ends the feed.
    func followBooks() -> AsyncThrowingStream<Book, any Error>
}
