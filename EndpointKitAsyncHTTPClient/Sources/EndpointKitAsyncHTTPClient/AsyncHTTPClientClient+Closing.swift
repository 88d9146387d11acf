@_spi(Transport) import EndpointKit
import Foundation

@_spi(Transport) extension AsyncHTTPClientClient: ClosingAwareClient {
    /// Waits `seconds`, unless the client is shut down first (see
    /// ``EndpointKit/ClosingAwareClient``).
    public func waitWhileOpen(_ seconds: TimeInterval) async throws {
        try await pipeline.waitWhileOpen(seconds)
    }
}
