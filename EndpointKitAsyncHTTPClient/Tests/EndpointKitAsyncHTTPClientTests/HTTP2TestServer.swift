import EndpointKit
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A TLS server that offers HTTP/2 and HTTP/1.1 by ALPN. Every request is answered with the
/// protocol it came over and the number of its connection, so a test sees what was
/// negotiated and how many connections carried its calls.
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

    static func start(_ identity: TestAuthority.Identity) async throws -> HTTP2TestServer {
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
                            connection.eventLoop.makeCompletedFuture {
                                _ = try connection.pipeline.syncOperations.configureHTTP2Pipeline(
                                    mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                                ) { stream in
                                    stream.eventLoop.makeCompletedFuture {
                                        try stream.pipeline.syncOperations.addHandlers([
                                            HTTP2FramePayloadToHTTP1ServerCodec(), Responder(protocolName: "h2", connection: number),
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

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            let body = (try? JSONEncoder().encode(Answer(protocolName: protocolName, connection: connection))) ?? Data()
            var headers = HTTPHeaders([("Content-Type", "application/json"), ("Content-Length", "\(body.count)")])
            if protocolName == "h2" { headers.remove(name: "Connection") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
