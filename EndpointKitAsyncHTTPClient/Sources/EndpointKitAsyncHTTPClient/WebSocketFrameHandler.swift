import AsyncHTTPClient
@_spi(Transport) import EndpointKit
import Foundation
import NIOCore
import NIOWebSocket

/// Runs one client WebSocket connection on its event loop: hands whole messages to the inbox,
/// answers pings, matches pongs, runs the closing handshake, and stops reading while the
/// inbox is full. Its methods run on the channel's event loop only.
final class WebSocketFrameHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// How long a peer has to answer our close frame before the connection is cut.
    static let closeGracePeriod = TimeAmount.seconds(5)

    private let inbox: WebSocketInbox
    private let url: URL?
    private var context: ChannelHandlerContext?
    private var paused = false
    private var readPending = false
    /// The code of the close frame we sent, once we sent one.
    private var closeSent: WebSocketCloseCode?
    /// Whether the peer's close frame arrived (the inbox has then been finished).
    private var closeReceived = false
    private var failure: (any Error)?
    private var pings: [UInt64: EventLoopPromise<Void>] = [:]
    private var nextPing: UInt64 = 0

    init(inbox: WebSocketInbox, url: URL?) {
        self.inbox = inbox
        self.url = url
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // The connection ended while the upgrade was under way, before this handler was there
        // to see it: end the socket once the frames that came with the 101 have been read.
        if !context.channel.isActive { context.eventLoop.assumeIsolated().execute { self.connectionEnded() } }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let payload = frame.unmaskedData
        switch frame.opcode {
        case .text:
            guard let text = String(bytes: payload.readableBytesView, encoding: .utf8) else {
                return refuse(.invalidFramePayloadData, "text message is not UTF-8")
            }
            deliver(.text(text))
        case .binary:
            deliver(.binary(Data(payload.readableBytesView)))
        case .ping:
            write(context, .pong, payload)
        case .pong:
            var payload = payload
            if let id = payload.readInteger(as: UInt64.self) { pings.removeValue(forKey: id)?.succeed(()) }
        case .connectionClose:
            receivedClose(payload)
        default:
            break
        }
    }

    private func deliver(_ message: WebSocketMessage) {
        guard !closeReceived, !inbox.deliver(message) else { return }
        paused = true
    }

    private func receivedClose(_ payload: ByteBuffer) {
        guard !closeReceived else { return }
        closeReceived = true
        var payload = payload
        let short = payload.readableBytes == 1
        let code = payload.readInteger(as: UInt16.self).map(WebSocketCloseCode.init(rawValue:))
        // RFC 6455 (5.5.1, 7.4): a close frame's body is empty or starts with a code that may
        // be sent; anything else breaks the protocol, as the frames NIO refuses do.
        if short || code.map({ !$0.mayBeSent }) == true {
            let broken = code.map { "the server closed with code \($0.rawValue), which is never sent" }
            return refuse(.protocolError, broken ?? "the server's close frame has a one-byte body")
        }
        let reason = payload.readString(length: payload.readableBytes) ?? ""
        inbox.finish(code: code ?? closeSent ?? .noStatusReceived, reason: reason)
        guard let context else { return }
        if closeSent == nil {
            // Answer with the same code, then close: the server's side of the handshake is done.
            closeSent = code ?? .normalClosure
            var answer = context.channel.allocator.buffer(capacity: 2)
            if let code { answer.writeInteger(code.rawValue) }
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(frame(.connectionClose, answer))).whenComplete { _ in
                channel.close(promise: nil)
            }
        } else {
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        connectionEnded()
        context.fireChannelInactive()
    }

    /// Fails the pings still waiting and ends the inbox, if the closing handshake has not.
    private func connectionEnded() {
        let closed = EndpointKitError.webSocketClosed(url: url, code: inbox.closeCode ?? .abnormalClosure)
        for promise in pings.values { promise.fail(closed) }
        pings = [:]
        if !closeReceived {
            closeReceived = true
            if let code = closeSent, failure == nil {
                inbox.finish(code: code, reason: "")
            } else {
                // As every other call's: a `URLError`, with the cause in words.
                let lost = failure ?? HTTPClientError.remoteConnectionClosed
                inbox.fail(url.map { AsyncHTTPClientTransport.translate(lost, url: $0) } ?? EndpointKitError.transportFailed(url: nil, underlying: lost))
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The rest of a message we refused, arriving while the peer answers our close frame.
        if closeSent != nil, error is ByteToMessageDecoderError { return }
        guard let (code, reason) = Self.refusal(error) else {
            if failure == nil { failure = error }
            return context.close(promise: nil)
        }
        refuse(code, reason)
    }

    /// The close code and reason that answer a peer's frame NIO or ``WebSocketFrameCheck``
    /// could not take: too large for ``NIOWebSocketChannel/maximumMessageSize``, or against the
    /// protocol.
    private static func refusal(_ error: any Error) -> (WebSocketCloseCode, String)? {
        let tooLarge = "message over \(NIOWebSocketChannel.maximumMessageSize >> 20) MiB"
        switch error {
        case NIOWebSocketError.invalidFrameLength: return (.messageTooBig, tooLarge)
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge: return (.messageTooBig, tooLarge)
        case let breach as WebSocketFrameCheck.Breach: return (.protocolError, breach.reason)
        case is NIOWebSocketError, is NIOWebSocketFrameAggregator.Error: return (.protocolError, "\(error)")
        default: return nil
        }
    }

    // MARK: Outbound

    func read(context: ChannelHandlerContext) {
        if paused { readPending = true } else { context.read() }
    }

    /// Reads again after a pause.
    func resume() {
        paused = false
        guard readPending, let context else { return }
        readPending = false
        context.read()
    }

    /// Writes a message; fails once a close frame was sent or received.
    func send(_ message: WebSocketMessage) -> EventLoopFuture<Void>? {
        guard let context, closeSent == nil, !closeReceived else { return nil }
        let allocator = context.channel.allocator
        switch message {
        case .text(let text): return write(context, .text, allocator.buffer(string: text))
        case .binary(let data): return write(context, .binary, allocator.buffer(bytes: data))
        }
    }

    /// Sends a ping; the promise succeeds when its pong arrives.
    func ping(_ promise: EventLoopPromise<Void>) -> Bool {
        guard let context, closeSent == nil, !closeReceived else { return false }
        nextPing += 1
        let id = nextPing
        pings[id] = promise
        var payload = context.channel.allocator.buffer(capacity: 8)
        payload.writeInteger(id)
        // A failed write fails the ping now; completing a promise twice is a no-op in NIO.
        write(context, .ping, payload).whenFailure { error in promise.fail(error) }
        return true
    }

    /// Stops waiting for a ping's pong: its caller was cancelled.
    func cancel(ping promise: EventLoopPromise<Void>) {
        guard let id = pings.first(where: { $0.value.futureResult === promise.futureResult })?.key else { return }
        pings.removeValue(forKey: id)?.fail(CancellationError())
    }

    /// Starts the closing handshake (or cuts the connection if the peer is slow to answer).
    func close(code: WebSocketCloseCode, reason: String) {
        guard let context else { return }
        guard closeSent == nil, !closeReceived else { return }
        closeSent = code
        var payload = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        // A code a close frame may not carry goes as a close without one (the reason, cut to
        // fit by `WebSocket.close`, needs a code before it).
        if code.mayBeSent {
            payload.writeInteger(code.rawValue)
            payload.writeString(reason)
        }
        write(context, .connectionClose, payload)
        let channel = context.channel
        context.eventLoop.scheduleTask(in: Self.closeGracePeriod) { channel.close(promise: nil) }
    }

    /// Ends the connection now, saying "going away" if no close frame went yet.
    func cancel() {
        guard let context else { return }
        if closeSent == nil, !closeReceived {
            closeSent = .goingAway
            var payload = context.channel.allocator.buffer(capacity: 2)
            payload.writeInteger(WebSocketCloseCode.goingAway.rawValue)
            write(context, .connectionClose, payload)
        }
        context.close(promise: nil)
    }

    /// Ends the socket over a message that cannot be delivered: the reader gets
    /// ``EndpointKit/EndpointKitError/webSocketClosed(url:code:)`` with `code` at once, instead
    /// of a quiet end, since a message was lost; the peer is told why in a closing handshake.
    private func refuse(_ code: WebSocketCloseCode, _ reason: String) {
        guard let context else { return }
        let refused = EndpointKitError.webSocketClosed(url: url, code: code)
        if failure == nil { failure = refused }
        inbox.fail(refused, code: code, reason: reason)
        guard closeSent == nil, !closeReceived else { return context.close(promise: nil) }
        close(code: code, reason: reason)
    }

    @discardableResult
    private func write(_ context: ChannelHandlerContext, _ opcode: WebSocketOpcode, _ data: ByteBuffer) -> EventLoopFuture<Void> {
        context.writeAndFlush(wrapOutboundOut(frame(opcode, data)))
    }

    private func frame(_ opcode: WebSocketOpcode, _ data: ByteBuffer) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
    }
}
