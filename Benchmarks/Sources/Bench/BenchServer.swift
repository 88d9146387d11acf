@_spi(Locking) import EndpointKit
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A loopback HTTP server for benchmarks: `GET /bytes?count=N` streams N bytes (1 MiB writes,
/// each after the previous one is flushed, so the server itself stays small); `POST /upload`
/// counts the body and answers `{"received": N}`; anything else answers a small JSON object.
final class BenchServer: Sendable {
    let port: Int
    private let channel: any Channel

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(channel: any Channel) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
    }

    static func start() async throws -> BenchServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    try child.pipeline.syncOperations.addHandler(Handler())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return BenchServer(channel: channel)
    }

    func stop() async {
        try? await channel.close()
    }

    /// When connections closed while a `/hang` request waited (monotonic nanoseconds).
    static let closes = Locked<[UInt64]>([])

    static let smallJSON = Data(
        #"{"id":1,"title":"Dune","author":"Frank Herbert","year":1965,"tags":["sf","classic","desert"],"rating":4.25,"available":true,"isbn":"978-0441013593","publisher":"Chilton Books"}"#.utf8)

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private var uri = ""
        private var ifNoneMatch: String?
        private var received = 0
        private var hanging = false
        private static let chunk = ByteBuffer(repeating: 0x5A, count: 1 << 20)

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                uri = head.uri
                ifNoneMatch = head.headers.first(name: "If-None-Match")
                received = 0
            case .body(let buffer):
                received += buffer.readableBytes
            case .end:
                respond(context: context)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if hanging {
                let now = DispatchTime.now().uptimeNanoseconds
                BenchServer.closes.update { $0.append(now) }
            }
            context.fireChannelInactive()
        }

        private func respond(context: ChannelHandlerContext) {
            if uri.hasPrefix("/hang") {
                hanging = true
                return
            }
            if uri.hasPrefix("/chaos") {
                return chaos(context: context, pick: (Int(uri.split(separator: "=").last ?? "") ?? 0) &* 7919 % 100)
            }
            if uri.hasPrefix("/cached") {
                // For the cache's rows: the small JSON with a validator; fresh for an hour, or
                // to be revalidated on every use (answered 304).
                let control = uri.hasPrefix("/cached-revalidate") ? "no-cache" : "max-age=3600"
                let validators = [("ETag", "\"small\""), ("Cache-Control", control)]
                guard ifNoneMatch != "\"small\"" else {
                    let head = HTTPResponseHead(version: .http1_1, status: .notModified, headers: HTTPHeaders(validators))
                    context.write(wrapOutboundOut(.head(head)), promise: nil)
                    return context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                }
                writeHead(context: context, length: BenchServer.smallJSON.count, type: "application/json", extra: validators)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: BenchServer.smallJSON)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            } else if uri.hasPrefix("/bytes") {
                let count = Int(uri.split(separator: "=").last ?? "") ?? 0
                // A validator, so a cancelled resumable download keeps its bytes (Cancellation).
                writeHead(context: context, length: count, type: "application/octet-stream", extra: [("ETag", "\"bytes-\(count)\"")])
                writeBytes(context: context, remaining: count)
            } else {
                let body = uri.hasPrefix("/upload") ? Data(#"{"received":\#(received)}"#.utf8) : BenchServer.smallJSON
                writeHead(context: context, length: body.count, type: "application/json")
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }

        /// Misbehaves on purpose, by the request's number: 55 % fine, 10 % each reset, 503,
        /// stall (never answers), truncated body, 5 % answered after 100 ms.
        private func chaos(context: ChannelHandlerContext, pick: Int) {
            let channel = context.channel
            switch pick {
            case 0..<55, 95..<100:
                let delay: TimeAmount = pick >= 95 ? .milliseconds(100) : .zero
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: delay) {
                    let (handler, context) = loopBound.value
                    handler.writeHead(context: context, length: BenchServer.smallJSON.count, type: "application/json")
                    context.write(handler.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: BenchServer.smallJSON)))), promise: nil)
                    context.writeAndFlush(handler.wrapOutboundOut(.end(nil)), promise: nil)
                }
            case 55..<65:
                (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
                    channel.close(promise: nil)
                }
            case 65..<75:
                let headers = HTTPHeaders([("Content-Length", "0")])
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .serviceUnavailable, headers: headers))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            case 75..<85:
                break
            default:
                writeHead(context: context, length: 500, type: "application/json")
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: #"{"id":"#)))), promise: nil)
                context.close(promise: nil)
            }
        }

        private func writeHead(context: ChannelHandlerContext, length: Int, type: String, extra: [(String, String)] = []) {
            let headers = HTTPHeaders([("Content-Length", "\(length)"), ("Content-Type", type)] + extra)
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        }

        private func writeBytes(context: ChannelHandlerContext, remaining: Int) {
            guard remaining > 0 else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            let size = min(remaining, Self.chunk.readableBytes)
            let buffer = Self.chunk.getSlice(at: 0, length: size) ?? Self.chunk
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer)))).whenSuccess {
                let (handler, context) = loopBound.value
                handler.writeBytes(context: context, remaining: remaining - size)
            }
        }
    }
}
