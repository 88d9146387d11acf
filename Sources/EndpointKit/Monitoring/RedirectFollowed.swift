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
}
