import Foundation

/// A client whose stopping ends the waits of what runs through it: a Server-Sent Events feed
/// waiting to reconnect (``Client/events(_:reconnect:)``) ends with
/// ``EndpointKitError/clientInvalidated`` as the client stops, instead of sleeping out a
/// reconnection time the server may have set to minutes.
///
/// SPI for EndpointKit's own client packages, not public API.
@_spi(Transport) public protocol ClosingAwareClient: Client {
    /// Waits `seconds`. Throws ``EndpointKitError/clientInvalidated`` at once when the client
    /// has begun to stop, before or during the wait, and `CancellationError` when the task is
    /// cancelled.
    func waitWhileOpen(_ seconds: TimeInterval) async throws
}
