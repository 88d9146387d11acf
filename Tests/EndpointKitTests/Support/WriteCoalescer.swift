import NIOCore

/// Sits next to the socket and, once armed, holds what the connection writes until
/// ``release()``, then sends it in one write: so the server's 101 and the WebSocket frames
/// written after it reach the client in one segment, as servers that write them together do.
/// Held writes are reported done at once, so the upgrade goes on while they wait.
final class WriteCoalescer: ChannelOutboundHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private var context: ChannelHandlerContext?
    private var held: ByteBuffer?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// Holds every write from now on.
    func arm() {
        held = held ?? ByteBuffer()
    }

    /// Sends what was held, in one write, and stops holding.
    func release() {
        guard let context, let buffer = held else { return }
        held = nil
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(buffer)), promise: nil)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard var buffer = held, case .byteBuffer(var bytes) = unwrapOutboundIn(data) else {
            return context.write(data, promise: promise)
        }
        buffer.writeBuffer(&bytes)
        held = buffer
        promise?.succeed(())
    }

    func flush(context: ChannelHandlerContext) {
        if held == nil { context.flush() }
    }
}
