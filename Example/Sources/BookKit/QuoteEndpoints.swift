import EndpointKit

/// An endpoint of the quotes API: JSON content; its error bodies
/// (`{"statusCode": 404, "statusMessage": "…"}`) become ``APIError``.
public protocol QuoteEndpoint: JSONEndpoint {}

extension QuoteEndpoint {
    /// Turns the API's error bodies into ``APIError``.
    public func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        try APIError.validateQuotable(request, response: response, data: data)
    }
}

/// `GET /random?tags=`: one random quote, optionally with a tag.
public struct RandomQuoteEndpoint: QuoteEndpoint {
    public typealias Content = Quote
    let tag: String?

    /// A random quote, tagged `tag` if given.
    public init(tag: String? = nil) { self.tag = tag }

    /// Builds the request.
    public func makeRequest() throws -> URLRequest {
        try URLRequest(.get, "random", query: tag.map { [URLQueryItem(name: "tags", value: $0)] } ?? [])
    }
}

/// `GET /quotes?tags=&page=&limit=`: one page of quotes with a tag.
public struct QuotesByTagEndpoint: QuoteEndpoint {
    public typealias Content = Paged<Quote>
    let tag: String
    let page: Int
    let limit: Int

    /// Page `page` of the quotes tagged `tag`, `limit` per page.
    public init(tag: String, page: Int = 1, limit: Int = 20) {
        self.tag = tag
        self.page = page
        self.limit = limit
    }

    /// Builds the request.
    public func makeRequest() throws -> URLRequest {
        try URLRequest(
            .get, "quotes",
            query: [.init(name: "tags", value: tag), .init(name: "page", value: "\(page)"), .init(name: "limit", value: "\(limit)")])
    }
}

/// `GET /search/authors?query=`: authors whose name matches.
public struct SearchAuthorsEndpoint: QuoteEndpoint {
    public typealias Content = Paged<Author>
    let query: String

    /// Authors matching `query`.
    public init(query: String) { self.query = query }

    /// Builds the request.
    public func makeRequest() throws -> URLRequest {
        try URLRequest(.get, "search/authors", query: [.init(name: "query", value: query)])
    }
}
