import Foundation
import NIOCore
import NIOPosix

/// A server on 127.0.0.1 that resets every connection as it accepts it, before reading a byte:
/// what a client meets where a service died behind a listener still open (a proxy with no
/// backend, a port forward to a pod that is gone). Counts the connections it accepted.
final class ResettingListener: Sendable {
    let url: URL
    private let channel: any Channel
    private let count = Guarded(0)

    /// How many connections it accepted (and reset).
    var accepted: Int { count.withLock { $0 } }

    private init(channel: any Channel) {
        self.channel = channel
        url = URL(string: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)")!
    }

    static func start() async throws -> ResettingListener {
        let box = Guarded<ResettingListener?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                box.withLock { $0 }?.count.withLock { $0 += 1 }
                // SO_LINGER with a zero timeout: the close is an RST.
                guard let socket = child as? any SocketOptionProvider else { return child.close() }
                return socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).flatMap { child.close() }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let listener = ResettingListener(channel: channel)
        box.withLock { $0 = listener }
        return listener
    }

    func stop() async {
        try? await channel.close()
    }
}
