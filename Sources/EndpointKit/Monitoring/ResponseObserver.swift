import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sees the outcome of every call: logging, metrics, tracing.
///
/// Called **exactly once per call**, with the request as sent (or `nil` if it could not be
/// built), the response and body if the server answered, and the final error if the call failed
/// (transport, validation, decoding, cancellation). It runs *before* the completion handler or
/// the async call returns, on the thread that finished the call, so keep it quick.
public typealias ResponseObserver =
    @Sendable (URLRequest?, HTTPURLResponse?, Data?, (any Error)?) -> Void
