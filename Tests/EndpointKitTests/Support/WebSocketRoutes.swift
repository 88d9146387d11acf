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
/// - `authorization`: the server sends the handshake's `Authorization` header back;
/// - `big N`: the server sends one binary frame of N bytes (`TransferRoutes.bytes(0..<N)`);
/// - `not-utf8`: the server sends a text frame that is not UTF-8;
/// - `masked`, `reserved-bit`, `reserved-bit-fragment`, `undefined-opcode`: the server sends a
///   frame that breaks the protocol so, then the text "after" and a close (1000);
/// - `mute`: the server answers nothing more (no echo, no pong), the connection left open, as
///   a peer that is gone without closing.
///
/// At `/ws/greeting` the server writes, in the same segment as its 101, the text "welcome" and
/// the text "fragmented" in two frames; at `/ws/greeting-then-close`, "welcome" and a close
/// frame (4000, "bye"); at `/ws/greeting-then-drop`, "welcome", and then it closes the TCP
/// connection without a closing handshake. At `/ws/subprotocol`, `/ws/subprotocol-unoffered`
/// and `/ws/extension` the 101 chooses a subprotocol or an extension (see `chosen(_:)`); at
/// the second, "welcome" comes in the same segment.
enum WebSocketRoutes {
    static func upgrader(_ server: TestServer) -> NIOWebSocketServerUpgrader {
        NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 24,
            shouldUpgrade: { channel, head in
                guard head.uri.hasPrefix("/ws/") else { return channel.eventLoop.makeSucceededFuture(nil) }
                if greets(head) {
                    // The 101 waits for the greeting, to go out in one segment with it.
                    try? channel.pipeline.syncOperations.handler(type: WriteCoalescer.self).arm()
                }
                let request = ReceivedRequest(method: head.method.rawValue, uri: head.uri, headers: head.headers, body: Data())
                server.log.withLock { $0.requests.append(request) }
                return channel.eventLoop.makeSucceededFuture(HTTPHeaders(chosen(head)))
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    operations.removeHandler(context: try operations.context(name: ConnectionHandler.name), promise: nil)
                    let closing = head.uri == "/ws/greeting-then-close"
                    try operations.addHandler(
                        WebSocketServerHandler(
                            server: server, authorization: head.headers.first(name: "Authorization"), closing: closing))
                    guard greets(head) else { return }
                    var frames = [WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: "welcome"))]
                    switch head.uri {
                    case "/ws/greeting":
                        frames.append(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(string: "frag")))
                        frames.append(WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(string: "mented")))
                    case "/ws/greeting-then-close":
                        var payload = ByteBuffer(integer: UInt16(4000))
                        payload.writeString("bye")
                        frames.append(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload))
                    default:
                        break
                    }
                    for frame in frames { channel.write(frame, promise: nil) }
                    try operations.handler(type: WriteCoalescer.self).release()
                    if head.uri == "/ws/greeting-then-drop" { channel.close(promise: nil) }
                }
            })
    }

    /// Whether the 101 goes out with frames after it, in one segment.
    private static func greets(_ head: HTTPRequestHead) -> Bool {
        head.uri.hasPrefix("/ws/greeting") || head.uri == "/ws/subprotocol-unoffered"
    }

    /// What the 101 chooses: at `/ws/subprotocol`, the last subprotocol offered (none if none
    /// was); at `/ws/subprotocol-unoffered`, `not-offered`, which no handshake offers; at
    /// `/ws/extension`, the extension `permessage-deflate`, whether offered or not.
    private static func chosen(_ head: HTTPRequestHead) -> [(String, String)] {
        if head.uri == "/ws/extension" { return [("Sec-WebSocket-Extensions", "permessage-deflate")] }
        if head.uri == "/ws/subprotocol-unoffered" { return [("Sec-WebSocket-Protocol", "not-offered")] }
        let offered = head.headers[canonicalForm: "Sec-WebSocket-Protocol"]
        guard head.uri == "/ws/subprotocol", let last = offered.last else { return [] }
        return [("Sec-WebSocket-Protocol", String(last))]
    }
}

/// Serves one upgraded connection for ``WebSocketRoutes``.
private final class WebSocketServerHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let server: TestServer
    private let authorization: String?
    private var closing: Bool
    private var ended = false
    private var muted = false

    /// `closing`: the server has sent a close frame already.
    init(server: TestServer, authorization: String?, closing: Bool = false) {
        self.server = server
        self.authorization = authorization
        self.closing = closing
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard !muted else { return }
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
        case "close-short":
            // A close frame whose body is one byte: half a code, which RFC 6455 forbids.
            closing = true
            send(.connectionClose, ByteBuffer(bytes: [0x03]), context: context)
        case "drop":
            context.close(promise: nil)
        case "mute":
            muted = true
        case "burst" where words.count == 2:
            for index in 0..<(Int(words[1]) ?? 0) {
                context.write(wrapOutboundOut(
                    WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: String(index)))),
                    promise: nil)
            }
            context.flush()
        case "big" where words.count == 2:
            let count = Int64(words[1]) ?? 0
            send(.binary, ByteBuffer(bytes: TransferRoutes.bytes(0..<count)), context: context)
        case "masked", "reserved-bit", "reserved-bit-fragment", "undefined-opcode":
            // A frame a server may not send (RFC 6455, 5.1, 5.2), then one it may, then a close.
            closing = true
            let after = [
                WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: "after")),
                WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer(integer: UInt16(1000))),
            ]
            for frame in Self.breaking(text, context.channel.allocator) + after { context.write(wrapOutboundOut(frame), promise: nil) }
            context.flush()
        case "not-utf8":
            send(.text, ByteBuffer(bytes: [0x63, 0x61, 0x66, 0xE9]), context: context)  // "café" in Latin-1
        case "authorization":
            send(.text, context.channel.allocator.buffer(string: authorization ?? "none"), context: context)
        default:
            send(.text, context.channel.allocator.buffer(string: text), context: context)
        }
    }

    /// The frames of a command that breaks the protocol: for `reserved-bit-fragment`, a text
    /// in two fragments, the second with a reserved bit set.
    private static func breaking(_ command: String, _ allocator: ByteBufferAllocator) -> [WebSocketFrame] {
        let data = allocator.buffer(string: command)
        switch command {
        case "masked": return [WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: data)]
        case "reserved-bit": return [WebSocketFrame(fin: true, rsv1: true, opcode: .text, data: data)]
        case "reserved-bit-fragment":
            return [
                WebSocketFrame(fin: false, opcode: .text, data: allocator.buffer(string: "frag")),
                WebSocketFrame(fin: true, rsv2: true, opcode: .continuation, data: allocator.buffer(string: "ment")),
            ]
        default:
            // Opcode 3 is reserved for data frames yet to be defined.
            return WebSocketOpcode(encodedWebSocketOpcode: 3).map { [WebSocketFrame(fin: true, opcode: $0, data: data)] } ?? []
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
