import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An attempt ended: ``CallMonitor/attemptFinished(_:)``.
public struct AttemptFinished: Sendable {
    /// Which call, at which attempt.
    public let call: CallContext
    /// The last request the attempt sent (after any redirect).
    public let request: URLRequest
    /// The final response of the attempt, whatever its status; `nil` if none arrived.
    public let response: HTTPURLResponse?
    /// Why the attempt failed: transport, timeout, validation, decoding, cancellation; `nil`
    /// when it produced the call's content.
    public let error: (any Error)?
    /// Bytes of request body sent, when known (`0` without a body).
    public let bytesSent: Int64?
    /// Bytes of response body received (for a stream, none: its body is read later).
    public let bytesReceived: Int64
    /// Whether the response's body goes to the caller as a stream, after this event
    /// (a `stream(_:)` call, and every call of a generated OpenAPI client): its size is not
    /// known here, and ``bytesReceived`` counts none of it.
    public let bodyIsStreamed: Bool
    /// Seconds from the attempt's start to its end.
    public let duration: TimeInterval
    /// What the client's ``HTTPCache`` did: ``CacheOutcome/hit``, ``CacheOutcome/miss``,
    /// revalidated or stale (and why); `nil` without a cache, or when the cache took no part.
    public let cache: CacheOutcome?

    /// Creates the event (for tests of a monitor; clients make them as calls run).
    public init(call: CallContext, request: URLRequest, response: HTTPURLResponse?, error: (any Error)?, bytesSent: Int64?, bytesReceived: Int64, duration: TimeInterval, cache: CacheOutcome? = nil, bodyIsStreamed: Bool = false) {
        self.call = call
        self.request = request
        self.response = response
        self.error = error
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.duration = duration
        self.cache = cache
        self.bodyIsStreamed = bodyIsStreamed
    }
}
