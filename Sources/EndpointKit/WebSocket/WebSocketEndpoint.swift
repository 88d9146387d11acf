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

    /// How often the open socket pings its peer, in seconds; `nil` (the default) for never.
    /// A pong that does not come within the interval fails the socket with
    /// ``EndpointKitError/timedOut(url:limit:)``, and the connection is cut: a peer that is gone
    /// without closing (a dropped route, a proxy that forgot the connection) does not leave the
    /// reader waiting for good. Every peer must answer pings (RFC 6455, 5.5.2).
    var pingInterval: TimeInterval? { get }
}

extension WebSocketEndpoint {
    /// Never pings.
    public var pingInterval: TimeInterval? { nil }
}
