import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call ended: ``CallMonitor/callFinished(_:)``.
public struct CallFinished: Sendable {
    /// Which call, at its last attempt (``CallContext/attempt`` is how many were made).
    public let call: CallContext
    /// The last request sent, or the built request (`nil` if none) when none was sent.
    public let request: URLRequest?
    /// The last response, if the server answered.
    public let response: HTTPURLResponse?
    /// The response body in memory, if any (not a download's file, not a stream's body).
    public let body: Data?
    /// Why the call failed; `nil` when it produced its content.
    public let error: (any Error)?
    /// Seconds from the call's start to its end, retries and their delays included.
    public let duration: TimeInterval
    /// Bytes of request body the last attempt sent, when known.
    public let bytesSent: Int64?
    /// Bytes of response body the last attempt received (for a stream, none: its body is
    /// read later).
    public let bytesReceived: Int64
    /// Whether the response's body goes to the caller as a stream, after this event; see
    /// ``AttemptFinished/bodyIsStreamed``.
    public let bodyIsStreamed: Bool
    /// What the client's ``HTTPCache`` did: ``CacheOutcome/hit``, ``CacheOutcome/miss``,
    /// revalidated or stale (and why); `nil` without a cache, or when the cache took no part.
    public let cache: CacheOutcome?

    /// Creates the event (for tests of a monitor; clients make them as calls run).
    public init(call: CallContext, request: URLRequest?, response: HTTPURLResponse?, body: Data?, error: (any Error)?, duration: TimeInterval, bytesSent: Int64?, bytesReceived: Int64, cache: CacheOutcome? = nil, bodyIsStreamed: Bool = false) {
        self.call = call
        self.request = request
        self.response = response
        self.body = body
        self.error = error
        self.duration = duration
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.cache = cache
        self.bodyIsStreamed = bodyIsStreamed
    }
}
