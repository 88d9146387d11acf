import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Pipeline {
    /// The settings of a WebSocket handshake: the client's.
    private struct HandshakeSettings: EndpointSettings {}

    /// Opens a WebSocket through the steps of every call: builds the handshake request, runs
    /// the request adapters and monitors on it, lets `open` connect within the client's
    /// timeout under the host's circuit and concurrency limit (``OverloadPolicy``), and retries
    /// a handshake that failed in transit (refused, reset, timed out) as the client's retry
    /// policy says. The open socket pings its peer as the endpoint's
    /// ``WebSocketEndpoint/pingInterval`` says.
    public func webSocket<T: WebSocketEndpoint>(
        _ endpoint: T, open: @Sendable (URLRequest, TimeInterval?) async throws -> WebSocket
    ) async throws -> WebSocket {
        let socket = try await run(T.self, settings: HandshakeSettings(), build: { (Outgoing(request: try endpoint.makeRequest()), nil) }) {
            outgoing, _, _ in
            try await overload.guarding(outgoing.request.url, within: outgoing.timeout) { (try await open(outgoing.request, $0), 101) }
        }
        if let interval = endpoint.pingInterval { socket.keepAlive(every: interval) }
        return socket
    }
}
