import EndpointKit
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A TLS server that offers HTTP/2 and HTTP/1.1 by ALPN. Every request is answered with the
/// protocol it came over and the number of its connection, so a test sees what was
/// negotiated and how many connections carried its calls; under `/early`, before its body. It can end each HTTP/2 connection
/// with a GOAWAY after a number of streams, as nginx does after 1,000 (`keepalive_requests`).
final class HTTP2TestServer: Sendable {
    /// What the server says of each request.
    struct Answer: Codable, Sendable {
        let protocolName: String
        let connection: Int
    }

    let port: Int
    private let channel: any Channel
    private let connections: Guarded<Int>

    var baseURL: URL { URL(string: "https://localhost:\(port)")! }
    /// How many connections the server has accepted.
    var connectionCount: Int { connections.withLock { $0 } }

    private init(channel: any Channel, connections: Guarded<Int>) {
        self.channel = channel
        self.connections = connections
        self.port = channel.localAddress?.port ?? 0
    }

    /// Starts the server; with `goAwayAfter`, each HTTP/2 connection announces a GOAWAY once
    /// that many streams have opened on it: it answers those, and no stream opened after.
    static func start(_ identity: TestAuthority.Identity, goAwayAfter streamLimit: Int? = nil) async throws -> HTTP2TestServer {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(identity.certificate)], privateKey: .privateKey(identity.key))
        configuration.applicationProtocols = ["h2", "http/1.1"]
        let context = try NIOSSLContext(configuration: configuration)
        let connections = Guarded(0)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                let number = connections.withLock { count in
                    count += 1
                    return count
                }
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }.flatMap {
                    child.configureHTTP2SecureUpgrade(
                        h2ChannelConfigurator: { connection in
                            let opened = Guarded(0)
                            return connection.eventLoop.makeCompletedFuture {
                                _ = try connection.pipeline.syncOperations.configureHTTP2Pipeline(
                                    mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                                ) { stream in
                                    stream.eventLoop.makeCompletedFuture {
                                        if let streamLimit { try goAway(after: stream, opened, on: connection, limit: streamLimit) }
                                        try stream.pipeline.syncOperations.addHandlers([
                                            StreamResetter(), HTTP2FramePayloadToHTTP1ServerCodec(),
                                            Responder(protocolName: "h2", connection: number),
                                        ])
                                    }
                                }
                            }
                        },
                        http1ChannelConfigurator: { connection in
                            connection.eventLoop.makeCompletedFuture {
                                try connection.pipeline.syncOperations.configureHTTPServerPipeline()
                                try connection.pipeline.syncOperations.addHandler(Responder(protocolName: "http/1.1", connection: number))
                            }
                        })
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return HTTP2TestServer(channel: channel, connections: connections)
    }

    func shutdown() async {
        try? await channel.close()
    }

    /// Sends a connection's GOAWAY once `limit` streams have opened on it (`opened` counts
    /// them), naming the last of them: the streams up to it are answered, no later one.
    private static func goAway(after stream: any Channel, _ opened: Guarded<Int>, on connection: any Channel, limit: Int) throws {
        let count = opened.withLock { count in
            count += 1
            return count
        }
        guard count == limit, let streamID = try stream.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID) else { return }
        let frame = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: streamID, errorCode: .noError, opaqueData: nil))
        connection.writeAndFlush(frame, promise: nil)
    }

    /// Answers each request, once its end has arrived, with an ``Answer``.
    private final class Responder: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let protocolName: String
        let connection: Int

        init(protocolName: String, connection: Int) {
            self.protocolName = protocolName
            self.connection = connection
        }

        /// Whether the request is answered at once, its body left unread: the stream is then
        /// reset, as nginx does when it refuses a request body (`413`, `401`, a `return`).
        private var answersEarly = false

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head) where head.uri.hasPrefix("/early"):
                answersEarly = true
                let answered = answer(context)
                // As nginx: RST_STREAM with NO_ERROR, once the answer is out.
                if protocolName == "h2" {
                    answered.assumeIsolated().whenSuccess { context.triggerUserOutboundEvent(StreamReset(), promise: nil) }
                }
            case .end where answersEarly: answersEarly = false
            case .end: answer(context)
            default: break
            }
        }

        @discardableResult
        private func answer(_ context: ChannelHandlerContext) -> EventLoopFuture<Void> {
            let body = (try? JSONEncoder().encode(Answer(protocolName: protocolName, connection: connection))) ?? Data()
            var headers = HTTPHeaders([("Content-Type", "application/json"), ("Content-Length", "\(body.count)")])
            if protocolName == "h2" { headers.remove(name: "Connection") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            return context.writeAndFlush(wrapOutboundOut(.end(nil)))
        }
    }

    /// Asks for the stream to be reset with `NO_ERROR`: the request's body is not wanted.
    private struct StreamReset {}

    /// Resets the stream when asked (``StreamReset``); first in a stream's pipeline, below
    /// the codec that speaks HTTP/1 parts.
    private final class StreamResetter: ChannelOutboundHandler, Sendable {
        typealias OutboundIn = HTTP2Frame.FramePayload
        typealias OutboundOut = HTTP2Frame.FramePayload

        func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
            guard event is StreamReset else { return context.triggerUserOutboundEvent(event, promise: promise) }
            context.writeAndFlush(wrapOutboundOut(.rstStream(.noError)), promise: promise)
        }
    }
}
