import EndpointKit

/// The book API as the rest of an app sees it. Every call has an async method; the common ones
/// also have a completion-handler method returning a cancellable `Progress`.
public protocol BookService: Sendable {
    /// Lists the first page of books.
    @discardableResult
    func fetchBooks(completion: @escaping @Sendable (Result<[Book], any Error>) -> Void) -> Progress
    /// Lists the first page of books.
    func fetchBooks() async throws -> [Book]
    /// Lists one page of books.
    func fetchBooks(page: Int, perPage: Int) async throws -> [Book]
    /// Gets one book.
    @discardableResult
    func book(id: Int, completion: @escaping @Sendable (Result<Book, any Error>) -> Void) -> Progress
    /// Gets one book.
    func book(id: Int) async throws -> Book
    /// Creates a book and returns it with its identifier.
    func create(_ book: NewBook) async throws -> Book
    /// Replaces a book's fields and returns the result.
    func update(id: Int, with book: NewBook) async throws -> Book
    /// Deletes a book.
    func delete(id: Int) async throws
    /// Uploads an image file as a book's cover; the returned `Progress` counts bytes sent.
    @discardableResult
    func uploadCover(id: Int, from file: URL, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) -> Progress
    /// Uploads an image file as a book's cover, reporting bytes sent to `progress`.
    func uploadCover(id: Int, from file: URL, progress: (@Sendable (TransferProgress) -> Void)?) async throws
    /// Downloads a book's cover to `destination`; the returned `Progress` counts bytes received.
    @discardableResult
    func downloadCover(id: Int, to destination: URL, completion: @escaping @Sendable (Result<URL, any Error>) -> Void) -> Progress
    /// Downloads a book's cover to `destination` (memory stays flat), reporting bytes to `progress`.
    func downloadCover(id: Int, to destination: URL, progress: (@Sendable (TransferProgress) -> Void)?) async throws -> URL
    /// Books as the server announces them, live, until the server ends the feed.
    func followBooks() -> AsyncThrowingStream<Book, any Error>
}
