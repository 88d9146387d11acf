import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An open WebSocket: iterate it for the messages it receives, ``send(_:)`` to it, and
/// ``close(code:reason:)`` it when done.
///
/// ```swift
/// let socket = try await client.webSocket(ChatEndpoint())
/// try await socket.send(.text("hello"))
/// for try await message in socket { … }
/// print(socket.closeCode ?? .abnormalClosure)
/// ```
///
/// The loop ends when either side closes the connection (``closeCode`` then tells how) and
/// throws if the connection fails. Cancelling the task that iterates ends the loop and the
/// connection; so does dropping the last reference to the socket. Iterate from one task at a
/// time. Messages wait unread in a small buffer; past it the library stops reading from the
/// connection until you catch up, so a slow reader slows the peer instead of filling memory.
public final class WebSocket: AsyncSequence, Sendable {
    /// What the socket yields: one whole message.
    public typealias Element = WebSocketMessage

    /// The handshake request as sent, after the client's request adapters
    /// (`AsyncHTTPClientClient` leaves out a `Sec-WebSocket-Extensions` field: it speaks none).
    public let request: URLRequest
    /// The subprotocol the server chose from those the request offered in its
    /// `Sec-WebSocket-Protocol` field; `nil` when it chose none. A server that chooses one the
    /// request did not offer fails the handshake with ``EndpointKitError/transportFailed(url:underlying:)``
    /// (`URLError.badServerResponse`), as RFC 6455 (4.1) asks.
    public let subprotocol: String?
    private let channel: any WebSocketChannel
    private let inbox: WebSocketInbox
    /// The pings of ``WebSocketEndpoint/pingInterval``, while the socket is open.
    private let keepAlive = Locked<Task<Void, Never>?>(nil)

    /// Wraps an open channel, whose handshake chose `subprotocol`. SPI for EndpointKit's client
    /// packages.
    @_spi(Transport) public init(request: URLRequest, channel: any WebSocketChannel, inbox: WebSocketInbox, subprotocol: String? = nil) {
        self.request = request
        self.subprotocol = subprotocol
        self.channel = channel
        self.inbox = inbox
        inbox.attach(resume: { [channel] in channel.resumeReading() }, cancel: { [channel] in channel.cancel() })
    }

    deinit {
        keepAlive.withLock { $0?.cancel() }
        channel.cancel()
    }

    /// Pings the peer every `interval` seconds from now on (see ``WebSocketKeepAlive``); not
    /// for an interval that is not a positive, finite number of seconds.
    func keepAlive(every interval: TimeInterval) {
        guard interval > 0, interval.isFinite else { return }
        let task = WebSocketKeepAlive.start(every: interval, channel: channel, inbox: inbox, url: request.url)
        keepAlive.withLock { $0 = task }
    }

    /// How the connection ended: the code of the closing handshake (whoever started it),
    /// ``WebSocketCloseCode/abnormalClosure`` when it failed, ``WebSocketCloseCode/goingAway``
    /// when the reader was cancelled; `nil` while it is open.
    public var closeCode: WebSocketCloseCode? { inbox.closeCode }

    /// The reason sent with ``closeCode``, if any.
    public var closeReason: String? { inbox.closeReason }

    /// Sends one message.
    /// - Throws: ``EndpointKitError/webSocketClosed(url:code:)`` once the socket is closing or
    ///   closed; ``EndpointKitError/transportFailed(url:underlying:)`` if the write fails.
    public func send(_ message: WebSocketMessage) async throws {
        try await channel.send(message)
    }

    /// Sends a ping and returns when the peer's pong arrives.
    /// - Throws: like ``send(_:)``; `CancellationError` if the calling task is cancelled.
    public func ping() async throws {
        try await channel.ping()
    }

    /// Closes the socket with `code` and `reason`, and returns once the connection is closed
    /// (a peer that does not answer within a few seconds is cut off). Messages the peer sent
    /// before its answer are still yielded; then the iteration ends. As RFC 6455 asks (a peer
    /// fails the connection otherwise), `reason` is cut to 123 bytes of whole characters, and
    /// `AsyncHTTPClientClient` sends a code that is never sent (1004, 1005, 1006, 1015, or
    /// outside 1000-4999) as a close without a code.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        keepAlive.withLock { $0?.cancel() }
        // A close frame holds at most 125 bytes: the code's two and the reason's.
        var bytes = 0
        await channel.close(code: code, reason: String(reason.prefix { bytes += $0.utf8.count; return bytes <= 123 }))
    }

    /// Returns an iterator over the received messages.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(socket: self, base: inbox.messages.makeAsyncIterator())
    }

    /// Yields the received messages in order; `nil` once the socket has closed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        // Keeps the socket alive while it is iterated.
        let socket: WebSocket
        var base: AsyncThrowingStream<WebSocketMessage, any Error>.AsyncIterator

        /// The next message; `nil` once the socket has closed or the task was cancelled.
        public mutating func next() async throws -> WebSocketMessage? {
            guard let message = try await base.next() else { return nil }
            socket.inbox.consumed()
            return message
        }
    }
}
