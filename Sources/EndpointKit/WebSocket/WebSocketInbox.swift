import Foundation

/// Where a ``WebSocketChannel`` puts what it receives, and the reader takes it from: messages
/// in order, then the end (a close code, or an error). It bounds what waits unread: past
/// ``highWater`` messages ``deliver(_:)`` tells the channel to stop reading, and the channel
/// is resumed once the reader is down to ``lowWater``.
///
/// SPI for EndpointKit's own client packages, not public API.
@_spi(Transport) public final class WebSocketInbox: Sendable {
    /// Unread messages at which the channel pauses.
    public static let highWater = 64
    /// Unread messages at which a paused channel resumes.
    public static let lowWater = 16

    private struct State {
        var unread = 0
        var paused = false
        var code: WebSocketCloseCode?
        var reason: String?
        var resume: (@Sendable () -> Void)?
        var cancel: (@Sendable () -> Void)?
    }

    let messages: AsyncThrowingStream<WebSocketMessage, any Error>
    private let continuation: AsyncThrowingStream<WebSocketMessage, any Error>.Continuation
    private let state = Locked(State())

    /// Creates an empty inbox.
    public init() {
        (messages, continuation) = AsyncThrowingStream.makeStream()
        continuation.onTermination = { [state] termination in
            guard case .cancelled = termination else { return }
            // The reading task was cancelled: the connection goes too.
            let cancel = state.withLock { state in
                if state.code == nil { state.code = .goingAway }
                return state.cancel
            }
            cancel?()
        }
    }

    /// Connects the inbox to its channel: `resume` reads again after a pause, `cancel` ends
    /// the connection when the reader is cancelled.
    public func attach(resume: @escaping @Sendable () -> Void, cancel: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.resume = resume
            state.cancel = cancel
        }
    }

    /// Hands a received message to the reader.
    /// - Returns: `false` when the channel should stop reading until `resume` is called.
    public func deliver(_ message: WebSocketMessage) -> Bool {
        guard case .enqueued = continuation.yield(message) else { return true }
        return state.withLock { state in
            state.unread += 1
            if state.unread >= Self.highWater { state.paused = true }
            return !state.paused
        }
    }

    /// Ends the messages after those already delivered: the connection closed with `code`.
    public func finish(code: WebSocketCloseCode, reason: String) {
        state.withLock { state in
            if state.code == nil { (state.code, state.reason) = (code, reason) }
        }
        continuation.finish()
    }

    /// Ends the messages after those already delivered, with `error`; the connection ended
    /// with `code` and `reason` (by default it was lost without a closing handshake).
    public func fail(_ error: any Error, code: WebSocketCloseCode = .abnormalClosure, reason: String? = nil) {
        state.withLock { state in
            if state.code == nil { (state.code, state.reason) = (code, reason) }
        }
        continuation.finish(throwing: error)
    }

    /// The code that ended the connection, once it has ended.
    public var closeCode: WebSocketCloseCode? { state.withLock { $0.code } }

    /// The reason given with ``closeCode``, once the connection has ended.
    public var closeReason: String? { state.withLock { $0.reason } }

    /// The reader took one message.
    func consumed() {
        let resume = state.withLock { state -> (@Sendable () -> Void)? in
            state.unread -= 1
            guard state.paused, state.unread <= Self.lowWater else { return nil }
            state.paused = false
            return state.resume
        }
        resume?()
    }
}
