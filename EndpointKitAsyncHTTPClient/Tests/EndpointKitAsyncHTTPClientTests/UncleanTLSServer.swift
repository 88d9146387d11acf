import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// An `https` server on 127.0.0.1 that answers each connection's first request with a body that
/// runs to the close (no length, not chunked), then closes the TCP connection without TLS's
/// closing alert (close_notify): what a client meets when the server's process dies, or a proxy
/// drops the connection, in the middle of such a body. Counts the connections it accepted.
final class UncleanTLSServer: Sendable {
    let url: URL
    private let channel: any Channel
    private let count: Guarded<Int>

    /// How many connections it accepted.
    var accepted: Int { count.withLock { $0 } }

    private init(channel: any Channel, count: Guarded<Int>) {
        self.channel = channel
        self.count = count
        url = URL(string: "https://localhost:\(channel.localAddress?.port ?? 0)")!
    }

    static func start(tls: @escaping @Sendable (any Channel) throws -> Void) async throws -> UncleanTLSServer {
        let count = Guarded(0)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                count.withLock { $0 += 1 }
                return child.eventLoop.makeCompletedFuture {
                    // Below TLS, so that closing through it skips TLS's closing alert.
                    try child.pipeline.syncOperations.addHandler(SocketCloser())
                    try tls(child)
                    try child.pipeline.syncOperations.addHandler(CloseDelimitedAnswer())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return UncleanTLSServer(channel: channel, count: count)
    }

    func stop() async {
        try? await channel.close()
    }
}

/// Closes the socket under TLS when asked.
private final class SocketCloser: ChannelOutboundHandler, Sendable {
    typealias OutboundIn = Any
}

/// Writes a close-delimited answer, then closes the socket below TLS.
private final class CloseDelimitedAnswer: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n[" + String(repeating: " ", count: 4000)
        let channel = context.channel
        context.writeAndFlush(NIOAny(ByteBuffer(string: answer))).whenComplete { _ in
            guard let below = try? channel.pipeline.syncOperations.context(handlerType: SocketCloser.self) else { return }
            below.close(promise: nil)
        }
    }
}
