import EndpointKit

/// A quotes API (the shape of the public Quotable API), as the rest of an app sees it.
public protocol QuoteService: Sendable {
    /// A random quote, tagged `tag` if given.
    @discardableResult
    func randomQuote(tag: String?, completion: @escaping @Sendable (Result<Quote, any Error>) -> Void) -> Progress
    /// A random quote, tagged `tag` if given.
    func randomQuote(tag: String?) async throws -> Quote
    /// One page of the quotes tagged `tag`.
    func quotes(tagged tag: String, page: Int) async throws -> Paged<Quote>
    /// Authors whose name matches `query`.
    func searchAuthors(_ query: String) async throws -> Paged<Author>
}
