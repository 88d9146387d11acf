import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call began: ``CallMonitor/callStarted(_:)``.
public struct CallStarted: Sendable {
    /// Which call.
    public let call: CallContext
    /// The first attempt's request after the adapters (its method and URL are what is sent), or
    /// the built request (`nil` if none) when the call failed before being sent.
    public let request: URLRequest?

    /// Creates the event (for tests of a monitor; clients make them as calls run).
    public init(call: CallContext, request: URLRequest?) {
        self.call = call
        self.request = request
    }
}
