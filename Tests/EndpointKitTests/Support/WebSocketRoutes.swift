import Foundation
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The test server's WebSockets, at any path under `/ws/` (other paths refuse the upgrade and
/// are answered as plain HTTP). Each connection echoes text and binary messages and answers
/// pings, and takes commands sent as text:
/// - `close CODE REASON`: the server closes with that code and reason;
/// - `drop`: the server closes the TCP connection without a closing handshake;
/// - `burst N`: the server sends the texts "0" … "N-1";
/// - `authorization`: the server sends the handshake's `Authorization` header back.
enum WebSocketRoutes {
    static func upgrader(_ server: TestServer) -> NIOWebSocketServerUpgrader {
        NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 24,
            shouldUpgrade: { channel, head in
                guard head.uri.hasPrefix("/ws/") else { return channel.eventLoop.makeSucceededFuture(nil) }
                let request = ReceivedRequest(method: head.method.rawValue, uri: head.uri, headers: head.headers, body: Data())
                server.log.withLock { $0.requests.append(request) }
                return channel.eventLoop.makeSucceededFuture(HTTPHeaders())
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    operations.removeHandler(context: try operations.context(name: ConnectionHandler.name), promise: nil)
                    try operations.addHandler(
                        WebSocketServerHandler(server: server, authorization: head.headers.first(name: "Authorization")))
                }
            })
    }
}

/// Serves one upgraded connection for ``WebSocketRoutes``.
private final class WebSocketServerHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let server: TestServer
    private let authorization: String?
    private var closing = false
    private var ended = false

    init(server: TestServer, authorization: String?) {
        self.server = server
        self.authorization = authorization
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        var payload = frame.unmaskedData
        switch frame.opcode {
        case .text:
            let text = payload.readString(length: payload.readableBytes) ?? ""
            command(text, context: context)
        case .binary:
            send(.binary, payload, context: context)
        case .ping:
            send(.pong, payload, context: context)
        case .connectionClose:
            let code = payload.readInteger(as: UInt16.self).map(String.init) ?? "none"
            end("closed \(code)")
            if closing {
                context.close(promise: nil)
            } else {
                var reply = context.channel.allocator.buffer(capacity: 2)
                if code != "none" { reply.writeInteger(UInt16(code) ?? 1000) }
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: reply)))
                    .whenComplete { _ in channel.close(promise: nil) }
            }
        default:
            break
        }
    }

    private func command(_ text: String, context: ChannelHandlerContext) {
        let words = text.split(separator: " ", maxSplits: 2).map(String.init)
        switch words.first {
        case "close" where words.count >= 2:
            closing = true
            var buffer = context.channel.allocator.buffer(capacity: 64)
            buffer.writeInteger(UInt16(words[1]) ?? 1000)
            buffer.writeString(words.count > 2 ? words[2] : "")
            send(.connectionClose, buffer, context: context)
        case "drop":
            context.close(promise: nil)
        case "burst" where words.count == 2:
            for index in 0..<(Int(words[1]) ?? 0) {
                context.write(wrapOutboundOut(
                    WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: String(index)))),
                    promise: nil)
            }
            context.flush()
        case "authorization":
            send(.text, context.channel.allocator.buffer(string: authorization ?? "none"), context: context)
        default:
            send(.text, context.channel.allocator.buffer(string: text), context: context)
        }
    }

    private func send(_ opcode: WebSocketOpcode, _ data: ByteBuffer, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: data)), promise: nil)
    }

    private func end(_ how: String) {
        guard !ended else { return }
        ended = true
        server.log.withLock { $0.webSocketEnds.append(how) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        end("dropped")
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
