import Foundation
import NIOCore
import NIOPosix

/// A server on 127.0.0.1 that drops every connection it accepts, answering nothing: what a
/// client meets where a service died behind a listener still open (a proxy with no backend, a
/// port forward to a pod that is gone), or a TLS terminator too loaded to finish handshakes.
/// Counts the connections it accepted.
final class ResettingListener: Sendable {
    /// How each connection is dropped.
    enum Drop: Sendable {
        /// Reset as it is accepted, before reading a byte.
        case resetOnAccept
        /// Reset once the client's first bytes (its request, or its TLS hello) arrive.
        case resetAfterFirstBytes
        /// Closed (a FIN) once the client's first bytes arrive.
        case closeAfterFirstBytes
    }

    let url: URL
    private let channel: any Channel
    private let count = Guarded(0)

    /// How many connections it accepted (and dropped).
    var accepted: Int { count.withLock { $0 } }

    private init(channel: any Channel) {
        self.channel = channel
        url = URL(string: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)")!
    }

    static func start(_ drop: Drop = .resetOnAccept) async throws -> ResettingListener {
        let box = Guarded<ResettingListener?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                box.withLock { $0 }?.count.withLock { $0 += 1 }
                switch drop {
                case .resetOnAccept: return reset(child)
                case .resetAfterFirstBytes, .closeAfterFirstBytes:
                    return child.pipeline.addHandler(DropOnFirstRead(reset: drop == .resetAfterFirstBytes))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let listener = ResettingListener(channel: channel)
        box.withLock { $0 = listener }
        return listener
    }

    /// Closes `child` with an RST: SO_LINGER with a zero timeout.
    static func reset(_ child: any Channel) -> EventLoopFuture<Void> {
        guard let socket = child as? any SocketOptionProvider else { return child.close() }
        return socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).flatMap { child.close() }
    }

    func stop() async {
        try? await channel.close()
    }
}

/// Drops its connection when the first bytes arrive.
private final class DropOnFirstRead: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let reset: Bool

    init(reset: Bool) { self.reset = reset }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        _ = reset ? ResettingListener.reset(context.channel) : context.close()
    }
}
