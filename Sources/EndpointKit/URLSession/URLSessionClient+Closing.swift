import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@_spi(Transport) extension URLSessionClient: ClosingAwareClient {
    /// Waits `seconds`, unless the client is invalidated first (see ``ClosingAwareClient``).
    public func waitWhileOpen(_ seconds: TimeInterval) async throws {
        try await pipeline.waitWhileOpen(seconds)
    }
}
