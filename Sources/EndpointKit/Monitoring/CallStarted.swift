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
}
