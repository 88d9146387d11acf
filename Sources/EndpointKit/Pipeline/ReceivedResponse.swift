import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one transfer produced. SPI for EndpointKit's client packages.
@_spi(Transport) public struct ReceivedResponse: Sendable {
    /// The response head, as the transport received it.
    public let head: ResponseHead
    /// The body, unless it went to a file.
    public let body: Data
    /// The downloaded file, for a 2xx download.
    public let fileURL: URL?
    /// What the client's ``HTTPCache`` did to answer it; `nil` without a cache, or when the
    /// cache took no part (set by the cache, not by transports).
    public internal(set) var cacheOutcome: CacheOutcome?
    /// Whether the body goes to the caller as a stream (``body`` is then empty).
    var bodyIsStreamed = false

    /// Creates a received response.
    public init(head: ResponseHead, body: Data, fileURL: URL?) {
        self.head = head
        self.body = body
        self.fileURL = fileURL
    }

    /// Creates a received response from a Foundation one.
    public init(response: HTTPURLResponse, body: Data, fileURL: URL?) {
        self.init(head: ResponseHead(response), body: body, fileURL: fileURL)
    }

    /// The response head as a Foundation response.
    public var response: HTTPURLResponse { head.response }
}

extension ReceivedResponse {
    /// The same answer, marked with what the cache did.
    func with(_ outcome: CacheOutcome) -> ReceivedResponse {
        var received = self
        received.cacheOutcome = outcome
        return received
    }
}
