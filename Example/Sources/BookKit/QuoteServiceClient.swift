import EndpointKit

/// ``QuoteService`` over any EndpointKit ``EndpointKit/Client``.
public struct QuoteServiceClient: QuoteService {
    private let client: any Client

    /// Creates the service over `client`, whose base URL is the quotes API's.
    public init(client: any Client) {
        self.client = client
    }

    /// A random quote, tagged `tag` if given.
    @discardableResult
    public func randomQuote(tag: String?, completion: @escaping @Sendable (Result<Quote, any Error>) -> Void) -> Progress {
        client.request(RandomQuoteEndpoint(tag: tag), completionHandler: completion)
    }

    /// A random quote, tagged `tag` if given.
    public func randomQuote(tag: String?) async throws -> Quote {
        try await client.request(RandomQuoteEndpoint(tag: tag))
    }

    /// One page of the quotes tagged `tag`.
    public func quotes(tagged tag: String, page: Int) async throws -> Paged<Quote> {
        try await client.request(QuotesByTagEndpoint(tag: tag, page: page))
    }

    /// Authors whose name matches `query`.
    public func searchAuthors(_ query: String) async throws -> Paged<Author> {
        try await client.request(SearchAuthorsEndpoint(query: query))
    }
}
