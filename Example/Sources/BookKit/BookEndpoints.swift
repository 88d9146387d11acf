import EndpointKit

/// An endpoint of the book API: JSON content, `APIError` for error bodies.
public protocol BookEndpoint: JSONEndpoint {}

extension BookEndpoint {
    /// Turns the API's `{"error": …}` bodies into ``APIError``.
    public func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        try APIError.validate(request, response: response, data: data)
    }
}

/// `GET /books?page=&per_page=`
public struct ListBooksEndpoint: BookEndpoint {
    public typealias Content = [Book]
    let page: Int
    let perPage: Int

    /// Lists one page of books.
    public init(page: Int = 1, perPage: Int = 20) {
        self.page = page
        self.perPage = perPage
    }

    /// Builds the request.
    public func makeRequest() throws -> URLRequest {
        try URLRequest(.get, "books", query: [.init(name: "page", value: "\(page)"), .init(name: "per_page", value: "\(perPage)")])
    }
}

/// `GET /books/{id}`
public struct GetBookEndpoint: BookEndpoint {
    public typealias Content = Book
    let id: Int

    /// Gets the book with `id`.
    public init(id: Int) { self.id = id }

    /// Builds the request.
    public func makeRequest() throws -> URLRequest { try URLRequest(.get, "books/\(id)") }
}

/// `POST /books`
public struct CreateBookEndpoint: BookEndpoint {
    public typealias Content = Book
    let book: NewBook

    /// Creates `book`.
    public init(book: NewBook) { self.book = book }

    /// Builds the request.
    public func makeRequest() throws -> URLRequest {
        var request = try URLRequest(.post, "books")
        try request.setJSONBody(book)
        return request
    }
}

/// `GET /books/feed`: new books as Server-Sent Events.
public struct BookFeedEndpoint: Endpoint {
    public typealias Content = Void

    /// The feed.
    public init() {}

    /// Builds the request.
    public func makeRequest() throws -> URLRequest { try URLRequest(.get, "books/feed") }
}
