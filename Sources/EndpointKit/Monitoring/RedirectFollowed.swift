import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A redirect is followed: ``CallMonitor/redirectFollowed(_:)``.
public struct RedirectFollowed: Sendable {
    /// Which call, at which attempt.
    public let call: CallContext
    /// The redirect (a 3xx with a `Location`).
    public let response: HTTPURLResponse
    /// The request that follows it.
    public let request: URLRequest

    /// Creates the event (for tests of a monitor; clients make them as calls run).
    public init(call: CallContext, response: HTTPURLResponse, request: URLRequest) {
        self.call = call
        self.response = response
        self.request = request
    }
}
