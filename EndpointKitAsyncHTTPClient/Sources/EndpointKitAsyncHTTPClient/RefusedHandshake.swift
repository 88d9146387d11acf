import NIOCore
import NIOHTTP1

/// Gathers the response to a WebSocket handshake the server did not accept (head and the
/// start of the body), so the error can say what the server answered.
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
            if body.readableBytes < bodyLimit {
                body.writeBuffer(&part)
            }
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
