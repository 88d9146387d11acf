@_spi(Locking) import EndpointKit
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// The dependency `Bench overload` calls, failing in the ways production does:
/// - `/dead`: 503 until ``downUntil`` (uptime nanoseconds), then a small JSON;
/// - `/tail`: a small JSON, 1 answer in 20 held back 500 ms (a slow tail);
/// - `/capacity`: a small JSON after 10 ms of work, at most 32 at a time (more wait their turn),
///   like a server with 32 threads.
/// Requests are counted per path (`/dead`'s while it is dead).
final class FaultyServer: Sendable {
    static let capacity = 32
    static let workTime: TimeAmount = .milliseconds(10)

    let port: Int
    private let channel: any Channel
    let state = Locked(State())

    struct State {
        var downUntil: UInt64 = 0
        var counts: [String: Int] = [:]
        var working = 0
        var waiting: [@Sendable () -> Void] = []
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(channel: any Channel) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
    }

    static func start() async throws -> FaultyServer {
        let box = Locked<FaultyServer?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    guard let server = box.withLock({ $0 }) else { throw ChannelError.ioOnClosedChannel }
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    try child.pipeline.syncOperations.addHandler(Handler(server: server))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = FaultyServer(channel: channel)
        box.withLock { $0 = server }
        return server
    }

    func stop() async {
        try? await channel.close()
    }

    /// Requests to `path` so far, and resets the count.
    func takeCount(_ path: String) -> Int {
        state.withLock { $0.counts.removeValue(forKey: path) ?? 0 }
    }

    /// Runs `work` when one of the 32 places is free; `done` gives the place back.
    fileprivate func whenFree(_ work: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.working < Self.capacity else {
                state.waiting.append(work)
                return false
            }
            state.working += 1
            return true
        }
        if now { work() }
    }

    fileprivate func done() {
        let next = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.waiting.isEmpty else {
                state.working -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?()
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let server: FaultyServer
        private var path = ""

        init(server: FaultyServer) {
            self.server = server
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): path = String(head.uri.split(separator: "?").first ?? "")
            case .body: break
            case .end:
                let path = self.path
                let now = DispatchTime.now().uptimeNanoseconds
                let (count, down) = server.state.withLock { state in
                    let down = now < state.downUntil
                    // The dead dependency's requests count while it is dead only.
                    if path != "/dead" || down { state.counts[path, default: 0] += 1 }
                    return (state.counts[path, default: 0], down)
                }
                let loop = context.eventLoop
                let bound = NIOLoopBound((self, context), eventLoop: loop)
                switch path {
                case "/dead":
                    respond(context: context, status: down ? .serviceUnavailable : .ok)
                case "/tail" where count % 20 == 0:
                    loop.scheduleTask(in: .milliseconds(500)) { bound.value.0.respond(context: bound.value.1, status: .ok) }
                case "/capacity":
                    let server = self.server
                    server.whenFree {
                        loop.scheduleTask(in: FaultyServer.workTime) {
                            server.done()
                            bound.value.0.respond(context: bound.value.1, status: .ok)
                        }
                    }
                default:
                    respond(context: context, status: .ok)
                }
            }
        }

        private func respond(context: ChannelHandlerContext, status: HTTPResponseStatus) {
            guard context.channel.isActive else { return }
            let body = status == .ok ? BenchServer.smallJSON : Data("busy".utf8)
            var headers = HTTPHeaders([("Content-Type", "application/json"), ("Content-Length", String(body.count))])
            if status != .ok { headers.replaceOrAdd(name: "Content-Type", value: "text/plain") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
