import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Describes a WebSocket to open: the request of its opening handshake.
///
/// The URL may use `ws`/`wss` or `http`/`https` (the same thing on the wire). Headers you set
/// (for example `Sec-WebSocket-Protocol`) are sent with the handshake, after the client's
/// request adapters have run on it, so authentication applies as it does to every call.
public protocol WebSocketEndpoint: Sendable {
    /// Builds the handshake request; a relative URL is resolved by the client's adapters.
    func makeRequest() throws -> URLRequest
}
