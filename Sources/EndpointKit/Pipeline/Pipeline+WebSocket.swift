import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Pipeline {
    /// Opens a WebSocket the way every call starts: builds the handshake request, runs the
    /// request adapters on it, lets `open` connect within the client's timeout, and tells the
    /// monitor how it went.
    public func webSocket<T: WebSocketEndpoint>(
        _ endpoint: T, open: @Sendable (URLRequest, TimeInterval?) async throws -> WebSocket
    ) async throws -> WebSocket {
        try await reporting(T.self) { events in
            let built = try Self.built(T.self, endpoint.makeRequest)
            events.request = built
            try Task.checkCancellation()
            var adapted = try await RequestAdapterChain.run(requestAdapter, on: built)
            events.attemptStarted(events.call, request: &adapted)
            do {
                let socket = try await open(adapted, timeout)
                events.attemptFinished(nil, error: nil, sending: Outgoing(request: adapted))
                return socket
            } catch {
                events.attemptFinished(nil, error: Self.normalized(error), sending: Outgoing(request: adapted))
                throw error
            }
        }
    }
}
