import NIOCore
import NIOWebSocket

/// Refuses the frames a server may not send that NIO's decoder passes on (RFC 6455, 5.1, 5.2):
/// a masked frame, one with a reserved bit set (this client negotiates no extension that
/// would give them a meaning), and one whose opcode the protocol does not define. It sits
/// before NIO's frame aggregator, which drops those bits from the fragments it joins.
///
/// The first such frame is not passed on: a ``Breach`` goes in its place, which
/// ``WebSocketFrameHandler`` answers by failing the socket with 1002. After it, only close
/// frames are passed on, so that the peer's answer still ends the closing handshake.
final class WebSocketFrameCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    /// A frame against the protocol, and what was wrong with it.
    struct Breach: Error {
        let reason: String
    }

    private static let definedOpcodes: [WebSocketOpcode] = [.continuation, .text, .binary, .connectionClose, .ping, .pong]
    private var broken = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if broken {
            if frame.opcode == .connectionClose { context.fireChannelRead(data) }
            return
        }
        guard let reason = Self.breach(frame) else { return context.fireChannelRead(data) }
        broken = true
        context.fireErrorCaught(Breach(reason: reason))
    }

    /// What is wrong with `frame`, or `nil` if nothing this check looks at is.
    private static func breach(_ frame: WebSocketFrame) -> String? {
        if frame.maskKey != nil { return "the server sent a masked frame" }
        if frame.rsv1 || frame.rsv2 || frame.rsv3 { return "the server set a reserved bit, and no extension was negotiated" }
        if !definedOpcodes.contains(frame.opcode) { return "the server sent a frame with an undefined opcode" }
        return nil
    }
}
