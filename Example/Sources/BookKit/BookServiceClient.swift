import EndpointKit

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
    @discardableResult
    public func book(id: Int, completion: @escaping @Sendable (Result<Book, any Error>) -> Void) -> Progress {
        client.request(GetBookEndpoint(id: id), completionHandler: completion)
    }

    /// Gets one book.
    public func book(id: Int) async throws -> Book {
        try await client.request(GetBookEndpoint(id: id))
    }

    /// Creates a book and returns it with its identifier.
    public func create(_ book: NewBook) async throws -> Book {
        try await client.request(CreateBookEndpoint(book: book))
    }

    /// Replaces a book's fields and returns the result.
    public func update(id: Int, with book: NewBook) async throws -> Book {
        // A one-off call needs no named endpoint type; it still turns error bodies into APIError.
        try await client.request(.put("books/\(id)", body: book, as: Book.self).validating(APIError.validate))
    }

    /// Deletes a book.
    public func delete(id: Int) async throws {
        try await client.request(.delete("books/\(id)").validating(APIError.validate))
    }

    /// Uploads an image file as a book's cover; the returned `Progress` counts bytes sent.
    @discardableResult
    public func uploadCover(
        id: Int, from file: URL, completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) -> Progress {
        client.upload(UploadCoverEndpoint(id: id, file: file), completionHandler: completion)
    }

    /// Uploads an image file as a book's cover, reporting bytes sent to `progress`.
    public func uploadCover(id: Int, from file: URL, progress: (@Sendable (TransferProgress) -> Void)?) async throws {
        try await client.upload(UploadCoverEndpoint(id: id, file: file), progress: progress)
    }

    /// Downloads a book's cover to `destination`; the returned `Progress` counts bytes received.
    @discardableResult
    public func downloadCover(
        id: Int, to destination: URL, completion: @escaping @Sendable (Result<URL, any Error>) -> Void
    ) -> Progress {
        client.download(DownloadCoverEndpoint(id: id, destination: destination), completionHandler: completion)
    }

    /// Downloads a book's cover to `destination`, reporting bytes to `progress`.
    public func downloadCover(
        id: Int, to destination: URL, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> URL {
        try await client.download(DownloadCoverEndpoint(id: id, destination: destination), progress: progress)
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
