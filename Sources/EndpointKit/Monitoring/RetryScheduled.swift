import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A failed attempt will be sent again: ``CallMonitor/retryScheduled(_:)``.
public struct RetryScheduled: Sendable {
    /// Which call, at the attempt that failed.
    public let call: CallContext
    /// Seconds until the next attempt.
    public let delay: TimeInterval
    /// Why the attempt failed.
    public let reason: any Error
    /// The failed attempt's request.
    public let request: URLRequest
    /// The failed attempt's response, if the server answered.
    public let response: HTTPURLResponse?
    /// The failed attempt's body, if the server answered.
    public let body: Data?

    /// Creates the event (for tests of a monitor; clients make them as calls run).
    public init(call: CallContext, delay: TimeInterval, reason: any Error, request: URLRequest, response: HTTPURLResponse?, body: Data?) {
        self.call = call
        self.delay = delay
        self.reason = reason
        self.request = request
        self.response = response
        self.body = body
    }
}
