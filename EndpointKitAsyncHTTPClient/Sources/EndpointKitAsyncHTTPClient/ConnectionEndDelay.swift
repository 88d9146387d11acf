import NIOCore

/// Passes a WebSocket connection's end on one event-loop tick late, so that frames a server
/// wrote with its 101 and its FIN, in one segment, still arrive. NIO removes the HTTP decoder a
/// tick after the 101, and a decoder that sees the end first drops the bytes after the 101
/// (it hands leftovers on only before the end). Late, the end finds the frame decoder in
/// place, with the frames already read.
final class ConnectionEndDelay: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    func channelInactive(context: ChannelHandlerContext) {
        context.eventLoop.assumeIsolated().execute { context.fireChannelInactive() }
    }

    /// Late too, so that it still comes after the end.
    func channelUnregistered(context: ChannelHandlerContext) {
        context.eventLoop.assumeIsolated().execute { context.fireChannelUnregistered() }
    }
}
