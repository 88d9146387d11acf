import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Pipeline {
    /// Opens a WebSocket the way every call starts: builds the handshake request, runs the
    /// request adapters on it, lets `open` connect within the client's timeout, and tells the
    /// response observer how it went.
    public func webSocket<T: WebSocketEndpoint>(
        _ endpoint: T, open: @Sendable (URLRequest, TimeInterval?) async throws -> WebSocket
    ) async throws -> WebSocket {
        try await CallContext.$current.withValue(CallContext(endpointType: T.self)) { try await handshake(endpoint, open: open) }
    }

    private func handshake<T: WebSocketEndpoint>(
        _ endpoint: T, open: @Sendable (URLRequest, TimeInterval?) async throws -> WebSocket
    ) async throws -> WebSocket {
        var request: URLRequest?
        do {
            let built = try Self.built(T.self, endpoint.makeRequest)
            request = built
            try Task.checkCancellation()
            let adapted = try await RequestAdapterChain.run(requestAdapter, on: built)
            request = adapted
            let socket = try await open(adapted, timeout)
            responseObserver?(adapted, nil, nil, nil)
            return socket
        } catch {
            throw failed(error, request: request, response: nil)
        }
    }
}
