import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An attempt is about to be sent: ``CallMonitor/attemptStarted(_:)``.
public struct AttemptStarted: Sendable {
    /// Which call, at which attempt (``CallContext/attempt``).
    public let call: CallContext
    /// The request as it will be sent, after the adapters.
    public let request: URLRequest

    /// Creates the event (for tests of a monitor; clients make them as calls run).
    public init(call: CallContext, request: URLRequest) {
        self.call = call
        self.request = request
    }
}
