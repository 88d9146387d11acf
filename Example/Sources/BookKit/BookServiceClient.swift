import EndpointKit
import Foundation

/// ``BookService`` over any EndpointKit ``EndpointKit/Client``.
public struct BookServiceClient: BookService {
    private let client: any Client

    /// Creates the service over `client`, whose base URL is the book API's.
    public init(client: any Client) {
        self.client = client
    }

    /// Lists the first page of books.
    @discardableResult
    public func fetchBooks(completion: @escaping @Sendable (Result<[Book], any Error>) -> Void) -> Progress {
        client.request(ListBooksEndpoint(), completionHandler: completion)
    }

    /// Lists the first page of books.
    public func fetchBooks() async throws -> [Book] {
        try await client.request(ListBooksEndpoint())
    }

    /// Lists one page of books.
    public func fetchBooks(page: Int, perPage: Int) async throws -> [Book] {
        try await client.request(ListBooksEndpoint(page: page, perPage: perPage))
    }

    /// Gets one book.
    public func book(id: Int) async throws -> Book {
        try await client.request(GetBookEndpoint(id: id))
    }

    /// Creates a book and returns it with its identifier.
    public func create(_ book: NewBook) async throws -> Book {
        try await client.request(CreateBookEndpoint(book: book))
    }

    /// Deletes a book.
    public func delete(id: Int) async throws {
        try await client.request(DeleteBookEndpoint(id: id))
    }

    /// Books as the server announces them, live, until the server ends the feed.
    public func followBooks() -> AsyncThrowingStream<Book, any Error> {
        let events = client.events(BookFeedEndpoint(), reconnect: false).decoded(as: Book.self)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await book in events { continuation.yield(book) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
