import Foundation

/// The I/O half of a ``WebSocket``: one open connection. Messages it receives go to the
/// ``WebSocketInbox`` it was given; ``WebSocket`` does the rest, so every transport behaves the
/// same. SPI for EndpointKit's own client packages, not public API.
@_spi(Transport) public protocol WebSocketChannel: Sendable {
    /// Sends one message. Throws ``EndpointKitError/webSocketClosed(url:code:)`` once the
    /// connection is closing or closed.
    func send(_ message: WebSocketMessage) async throws

    /// Sends a ping and returns when its pong arrives; throws if the connection closes first,
    /// and `CancellationError` if the calling task is cancelled.
    func ping() async throws

    /// Runs the closing handshake and returns once the connection is closed; a peer that does
    /// not answer within a few seconds is cut off. `reason` already fits a close frame (123
    /// bytes at most); ``WebSocketCloseCode/mayBeSent`` says whether a frame may carry `code`.
    func close(code: WebSocketCloseCode, reason: String) async

    /// Reads again after the inbox asked the channel to pause.
    func resumeReading()

    /// Ends the connection now (a best-effort close frame saying ``WebSocketCloseCode/goingAway``).
    func cancel()
}
