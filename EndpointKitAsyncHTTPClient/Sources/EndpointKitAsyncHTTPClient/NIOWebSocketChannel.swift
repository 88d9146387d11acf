import AsyncHTTPClient
@_spi(Transport) @_spi(Locking) import EndpointKit
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A WebSocket over SwiftNIO (`ws://`, and `wss://` through NIOSSL): the connection's
/// ``WebSocketFrameHandler`` does the work on its event loop; this type is the thread-safe
/// face ``EndpointKit/WebSocket`` talks to.
final class NIOWebSocketChannel: WebSocketChannel {
    private enum Upgrade: Sendable {
        case accepted(NIOWebSocketChannel, subprotocol: String?)
        case refused(EventLoopFuture<(HTTPResponseHead, ByteBuffer)>)
    }

    /// The largest message kept; a bigger one fails the socket.
    static let maximumMessageSize = 16 << 20

    private let channel: any Channel
    private let handler: NIOLoopBound<WebSocketFrameHandler>
    private let inbox: WebSocketInbox
    private let url: URL?

    private init(channel: any Channel, handler: WebSocketFrameHandler, inbox: WebSocketInbox, url: URL?) {
        self.channel = channel
        self.handler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
        self.inbox = inbox
        self.url = url
    }

    /// Connects, runs the opening handshake for `request`, and returns the open socket. The
    /// connection is made within `timeout` or AsyncHTTPClientClient's connect timeout (10 s),
    /// whichever is shorter, as for requests; the handshake ends within `timeout`, or within
    /// `idleLimit` (the read timeout of requests, 60 s) when the call has none, so that a server
    /// that never answers it does not hold the call for ever.
    static func open(
        _ request: URLRequest, group: any EventLoopGroup, tls: TLSConfiguration, timeout: TimeInterval?,
        idleLimit: TimeInterval = NIOWebSocketChannel.idleLimit
    ) async throws -> WebSocket {
        let target = try WebSocketTarget(request)
        let inbox = WebSocketInbox()
        let opened = Locked<(any Channel)?>(nil)
        let timedOut = Locked(false)
        let limit = timeout ?? idleLimit
        do {
            let socket = try await withTaskCancellationHandler {
                let upgrade = try await ClientBootstrap(group: group)
                    .connectTimeout(TimeAmount(min(limit, connectLimit)))
                    .connect(host: target.host, port: target.port) { channel in
                        opened.withLock { $0 = channel }
                        return channel.eventLoop.makeCompletedFuture {
                            try configure(channel, target: target, request: request, inbox: inbox, tls: tls)
                        }
                    }
                let deadline = upgrade.eventLoop.scheduleTask(in: TimeAmount(limit)) {
                    timedOut.withLock { $0 = true }
                    opened.withLock { $0 }?.close(promise: nil)
                }
                // A refused handshake's answer is read within the limit too: closing the
                // connection then ends it with the bytes that came.
                upgrade.whenComplete { result in
                    guard case .success(.refused(let answer)) = result else { return deadline.cancel() }
                    answer.whenComplete { _ in deadline.cancel() }
                }
                if Task.isCancelled { opened.withLock { $0 }?.close(promise: nil) }
                switch try await upgrade.get() {
                case .accepted(let channel, let subprotocol):
                    return WebSocket(request: request, channel: channel, inbox: inbox, subprotocol: subprotocol)
                case .refused(let answer):
                    let (head, body) = try await answer.get()
                    throw refusal(request, head: head, body: body)
                }
            } onCancel: {
                opened.withLock { $0 }?.close(promise: nil)
            }
            return socket
        } catch {
            opened.withLock { $0 }?.close(promise: nil)
            if Task.isCancelled { throw CancellationError() }
            // A refusal stands, even when its answer's body was cut short by the time limit.
            if case EndpointKitError.unacceptableStatus = error { throw error }
            // The call's own limit, or the idle one, ran out: connecting or in the handshake.
            if timedOut.withLock({ $0 }) || (limit <= connectLimit && isConnectTimeout(error)) {
                throw EndpointKitError.timedOut(url: request.url, limit: limit)
            }
            guard let url = request.url else { throw EndpointKitError.transportFailed(url: nil, underlying: error) }
            // In words, as every other call's: refused, reset, lost, or what TLS said. NIO's
            // upgrade fails with `inappropriateOperationForState` when the connection ended
            // cleanly (a TLS close_notify) before any answer.
            let ended = (error as? ChannelError) == .inappropriateOperationForState
            throw AsyncHTTPClientTransport.translate(ended ? HTTPClientError.remoteConnectionClosed : error, url: url)
        }
    }

    /// The longest wait for a connection, as AsyncHTTPClientClient's requests have
    /// (``AsyncHTTPClientClient/configuration``): past it, the call fails with
    /// `URLError.timedOut`, as theirs do.
    private static let connectLimit = TimeInterval(AsyncHTTPClientClient.configuration.timeout.connect?.nanoseconds ?? 10_000_000_000) / 1e9

    /// The longest wait for the handshake's answer when the call has no time limit, as
    /// AsyncHTTPClientClient's requests have for each read (``AsyncHTTPClientClient/configuration``).
    static let idleLimit = TimeInterval(AsyncHTTPClientClient.configuration.timeout.read?.nanoseconds ?? 60_000_000_000) / 1e9

    /// Whether `error` is NIO's for a connection not made in time.
    private static func isConnectTimeout(_ error: any Error) -> Bool {
        guard case ChannelError.connectTimeout = error else { return false }
        return true
    }

    /// Sets up a new connection: TLS if asked, then HTTP with the WebSocket upgrade.
    private static func configure(
        _ channel: any Channel, target: WebSocketTarget, request: URLRequest, inbox: WebSocketInbox, tls: TLSConfiguration
    ) throws -> EventLoopFuture<Upgrade> {
        let operations = channel.pipeline.syncOperations
        if target.secure {
            let context = try NIOSSLContext(configuration: tls)
            try operations.addHandler(try NIOSSLClientHandler(context: context, serverHostname: target.serverName))
        }
        try operations.addHandler(ConnectionEndDelay())
        let refused = RefusedHandshake(eventLoop: channel.eventLoop, bodyLimit: HTTPFailure.bodyLimit)
        let answer = refused.response
        let refusedHandler = NIOLoopBound(refused, eventLoop: channel.eventLoop)
        // A message may come in one frame (most servers do not fragment), so a frame may be as
        // large as a message. Protocol errors are the frame handler's to answer.
        let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
            maxFrameSize: maximumMessageSize, enableAutomaticErrorHandling: false
        ) { channel, head in
            channel.eventLoop.makeCompletedFuture {
                let operations = channel.pipeline.syncOperations
                operations.removeHandler(refusedHandler.value, promise: nil)
                // A subprotocol not offered, or any extension, fails the upgrade, and the
                // connection is cut. Not before that handler is gone: frames that came with
                // the 101 are passed on even then, and it takes HTTP parts only.
                if head.headers.contains(name: "Sec-WebSocket-Extensions") {
                    throw WebSocket.handshakeFailure(
                        "chose a WebSocket extension (Sec-WebSocket-Extensions), and AsyncHTTPClientClient offers none", request: request)
                }
                let chosen = head.headers["Sec-WebSocket-Protocol"]
                let subprotocol = try WebSocket.checkedSubprotocol(chosen.isEmpty ? nil : chosen.joined(separator: ", "), offeredIn: request)
                let handler = WebSocketFrameHandler(inbox: inbox, url: request.url)
                try operations.addHandler(WebSocketFrameCheck())
                try operations.addHandler(
                    NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: .max,
                        maxAccumulatedFrameSize: maximumMessageSize))
                try operations.addHandler(handler)
                return .accepted(NIOWebSocketChannel(channel: channel, handler: handler, inbox: inbox, url: request.url), subprotocol: subprotocol)
            }
        }
        let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
            upgradeRequestHead: target.head(request), upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(.refused(answer)) })
        var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
        // Frames the server wrote in the same segment as its 101 are the socket's first: NIO
        // drops them by default.
        pipeline.leftOverBytesStrategy = .forwardBytes
        let upgrade = try operations.configureUpgradableHTTPClientPipeline(configuration: pipeline)
        try operations.addHandler(refused)
        return upgrade
    }

    private static func refusal(_ request: URLRequest, head: HTTPResponseHead, body: ByteBuffer) -> EndpointKitError {
        var fields: [String: String] = [:]
        for (name, value) in head.headers { fields[name] = value }
        guard let url = request.url,
            let response = HTTPURLResponse(url: url, statusCode: Int(head.status.code), httpVersion: "HTTP/1.1", headerFields: fields)
        else { return .invalidResponse(url: request.url) }
        return .unacceptableStatus(HTTPFailure(request: request, response: response, body: Data(body.readableBytesView)))
    }

    // MARK: WebSocketChannel

    func send(_ message: WebSocketMessage) async throws {
        let written = try await channel.eventLoop.submit { [handler] in handler.value.send(message) }.get()
        guard let written else { throw closed() }
        do {
            try await written.get()
        } catch {
            throw EndpointKitError.transportFailed(url: url, underlying: error)
        }
    }

    func ping() async throws {
        let pong = channel.eventLoop.makePromise(of: Void.self)
        try await withTaskCancellationHandler {
            let sent = try await channel.eventLoop.submit { [handler] in handler.value.ping(pong) }.get()
            guard sent else {
                pong.fail(closed())
                throw closed()
            }
            try await pong.futureResult.get()
        } onCancel: {
            channel.eventLoop.execute { [handler] in handler.value.cancel(ping: pong) }
        }
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        channel.eventLoop.execute { [handler] in handler.value.close(code: code, reason: reason) }
        try? await channel.closeFuture.get()
    }

    func resumeReading() {
        channel.eventLoop.execute { [handler] in handler.value.resume() }
    }

    func cancel() {
        channel.eventLoop.execute { [handler] in handler.value.cancel() }
    }

    /// The error of a send or ping once the socket is closing or closed: with the code that
    /// closed it, once there is one (a peer's 1009 says the last message was too big).
    private func closed() -> EndpointKitError {
        .webSocketClosed(url: url, code: inbox.closeCode)
    }
}
