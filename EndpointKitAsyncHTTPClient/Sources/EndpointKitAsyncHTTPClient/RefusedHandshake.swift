import NIOCore
import NIOHTTP1

/// Gathers the response to a WebSocket handshake the server did not accept (head and the
/// start of the body), so the error can say what the server answered. The answer is complete
/// at its end, when the connection closes, or once `bodyLimit` bytes have come: the rest of a
/// body is not waited for (an error page streamed without end cannot hang the handshake).
final class RefusedHandshake: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    /// The answer, once its end has arrived (or the connection closed after its head).
    let response: EventLoopFuture<(HTTPResponseHead, ByteBuffer)>
    private let promise: EventLoopPromise<(HTTPResponseHead, ByteBuffer)>
    private let bodyLimit: Int
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()

    init(eventLoop: any EventLoop, bodyLimit: Int) {
        promise = eventLoop.makePromise()
        response = promise.futureResult
        self.bodyLimit = bodyLimit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(var part):
            guard body.readableBytes < bodyLimit else { return }
            body.writeBuffer(&part)
            if body.readableBytes >= bodyLimit { finish() }
        case .end:
            finish()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        promise.fail(ChannelError.ioOnClosedChannel)
    }

    private func finish() {
        if let head { promise.succeed((head, body)) } else { promise.fail(ChannelError.inputClosed) }
    }
}
