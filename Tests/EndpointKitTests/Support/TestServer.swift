import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

import EndpointKit

/// A real HTTP/1.1 server inside the test process, on 127.0.0.1 and a random port.
///
/// Every request is recorded; a connection that closes while its request's handler is still
/// running is recorded as a disconnect (that handler's task is cancelled), which is how tests
/// see that a client really closed the socket.
final class TestServer: Sendable {
    typealias Handler = @Sendable (ReceivedRequest, Responder) async throws -> Void

    struct Log: Sendable {
        var requests: [ReceivedRequest] = []
        var disconnects: [String] = []
        var connections = 0
        var openConnections = 0
        /// How each WebSocket ended, as the server saw it: "closed 1000" after a closing
        /// handshake (with the code received), "dropped" when the connection just went.
        var webSocketEnds: [String] = []
        /// Request body bytes read so far, counted as they arrive (before a request ends).
        var bodyBytesArrived = 0
    }

    let port: Int
    let log = Guarded(Log())
    private let channel: any Channel
    private let children = Guarded<[ObjectIdentifier: any Channel]>([:])

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var tlsBaseURL: URL { URL(string: "https://localhost:\(port)")! }

    var requests: [ReceivedRequest] { log.withLock { $0.requests } }
    var disconnects: [String] { log.withLock { $0.disconnects } }
    var webSocketEnds: [String] { log.withLock { $0.webSocketEnds } }

    private init(channel: any Channel) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
    }

    /// Starts a server answering with `handler`; paths under `/ws/` also accept WebSocket
    /// upgrades (see ``WebSocketRoutes``). `tls`, when given, adds a TLS handler to each
    /// connection first; `gate`, when given, makes it take new connections as a server with a
    /// few threads does (see ``AcceptGate``).
    static func start(
        tls: (@Sendable (any Channel) throws -> Void)? = nil, gate: AcceptGate? = nil, _ handler: @escaping Handler
    ) async throws -> TestServer {
        let box = Guarded<TestServer?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 512)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    guard let server = box.withLock({ $0 }) else { throw ChannelError.ioOnClosedChannel }
                    server.track(child)
                    var responseEnded: (@Sendable () -> Void)?
                    if let gate {
                        let gateHandler = gate.handler()
                        try child.pipeline.syncOperations.addHandler(gateHandler)
                        let bound = NIOLoopBound(gateHandler, eventLoop: child.eventLoop)
                        let loop = child.eventLoop
                        responseEnded = { loop.execute { bound.value.responseEnded() } }
                    }
                    try tls?(child)
                    try child.pipeline.syncOperations.addHandler(WriteCoalescer())
                    try child.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [WebSocketRoutes.upgrader(server)], completionHandler: { _ in }),
                        withErrorHandling: true)
                    try child.pipeline.syncOperations.addHandler(
                        ConnectionHandler(server: server, handler: handler, responseEnded: responseEnded), name: ConnectionHandler.name)
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = TestServer(channel: channel)
        box.withLock { $0 = server }
        return server
    }

    /// A server started and shut down at once: its URLs name a port where nothing listens.
    static func stopped(tls: (@Sendable (any Channel) throws -> Void)? = nil) async throws -> TestServer {
        let server = try await start(tls: tls, Routes.standard)
        await server.shutdown()
        return server
    }

    /// Closes the listener and every connection.
    func shutdown() async {
        try? await channel.close()
        let open = children.withLock { Array($0.values) }
        for child in open { try? await child.close() }
    }

    /// Waits until a connection serving `path` closed early; `false` after `timeout` seconds.
    func waitForDisconnect(of path: String, count: Int = 1, timeout: Double = 5) async -> Bool {
        await waitUntil(timeout: timeout) { self.disconnects.filter { $0 == path }.count >= count }
    }

    /// Waits until the WebSockets served ended as `ends` says (see ``Log/webSocketEnds``);
    /// `false` after `timeout` seconds.
    func waitForWebSocketEnds(_ ends: [String], timeout: Double = 5) async -> Bool {
        await waitUntil(timeout: timeout) { self.webSocketEnds == ends }
    }

    private func track(_ child: any Channel) {
        let id = ObjectIdentifier(child)
        children.withLock { $0[id] = child }
        log.withLock {
            $0.connections += 1
            $0.openConnections += 1
        }
        child.closeFuture.whenComplete { _ in
            self.children.withLock { $0[id] = nil }
            self.log.withLock { $0.openConnections -= 1 }
        }
    }
}

/// Polls `condition` until it holds or `timeout` seconds pass.
func waitUntil(timeout: Double, every interval: UInt64 = 10_000_000, _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: interval)
    }
    return condition()
}

/// A request as the server received it.
struct ReceivedRequest: Sendable {
    let method: String
    let uri: String
    let headers: HTTPHeaders
    let body: Data

    var path: String { String(uri.split(separator: "?", maxSplits: 1).first ?? "") }
    var query: String? {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 ? String(parts[1]) : nil
    }
    var queryItems: [String: String] {
        var items: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(kv[0]).removingPercentEncoding ?? String(kv[0])
            items[name] = kv.count > 1 ? (String(kv[1]).removingPercentEncoding ?? String(kv[1])) : ""
        }
        return items
    }
    func header(_ name: String) -> String? { headers.first(name: name) }
}

/// Writes one response. Tests use it to answer normally, slowly, partly, or not at all.
final class Responder: Sendable {
    let channel: any Channel
    private let ended: @Sendable () -> Void
    private let isIdle: @Sendable () -> Bool

    init(channel: any Channel, ended: @escaping @Sendable () -> Void, isIdle: @escaping @Sendable () -> Bool = { true }) {
        self.channel = channel
        self.ended = ended
        self.isIdle = isIdle
    }

    /// Closes the connection unless another request has started on it: what a server does
    /// when its keep-alive timeout ends. Checked on the event loop, where requests are read.
    func closeIfIdle() async {
        let (channel, isIdle) = (self.channel, self.isIdle)
        try? await channel.eventLoop.submit { if isIdle() { channel.close(promise: nil) } }.get()
    }

    func send(
        status: Int = 200, headers: [(String, String)] = [], body: Data = Data(),
        contentLength: Int? = nil
    ) async throws {
        var all = headers
        all.append(("Content-Length", String(contentLength ?? body.count)))
        try await head(status: status, headers: all)
        if !body.isEmpty { try await write(body) }
        try await end()
    }

    func sendJSON<T: Encodable>(_ value: T, status: Int = 200) async throws {
        let body = try JSONEncoder().encode(value)
        try await send(status: status, headers: [("Content-Type", "application/json")], body: body)
    }

    func head(status: Int, headers: [(String, String)] = []) async throws {
        let head = HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: status),
            headers: HTTPHeaders(headers))
        try await channel.writeAndFlush(HTTPServerResponsePart.head(head)).get()
    }

    func write(_ data: Data) async throws {
        let buffer = channel.allocator.buffer(bytes: data)
        try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer))).get()
    }

    func end() async throws {
        ended()
        try await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
    }

    /// Writes `text` to the socket as it is, past the HTTP encoder: for responses that encoder
    /// would not produce (informational heads, chunk extensions, trailers, no framing at all).
    func raw(_ text: String) async throws {
        try await raw(Data(text.utf8))
    }

    /// Writes `bytes` to the socket as they are; see ``raw(_:)-(String)``.
    func raw(_ bytes: Data) async throws {
        let channel = self.channel
        try await channel.eventLoop.flatSubmit {
            do {
                let encoder = try channel.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
                return encoder.writeAndFlush(NIOAny(channel.allocator.buffer(bytes: bytes)))
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }.get()
    }

    /// Closes the connection (a FIN), wherever the response is.
    func close() async {
        ended()
        try? await channel.close()
    }

    /// Resets the connection (an RST): SO_LINGER with a zero timeout, then close.
    func reset() async {
        ended()
        if let provider = channel as? any SocketOptionProvider {
            try? await provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }
        try? await channel.close()
    }
}

/// Gathers each request and runs the test's handler for it in a task.
final class ConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    /// Its name in the pipeline, so a WebSocket upgrade can remove it.
    static let name = "test-server-http"

    private struct InFlight: Sendable {
        var path: String?
        var task: Task<Void, Never>?
    }

    private let server: TestServer
    private let handler: TestServer.Handler
    private var head: HTTPRequestHead?
    private var body = Data()
    /// The request was answered at its head (paths under `/early`); its body is dropped.
    private var answeredEarly = false
    private let inFlight = Guarded(InFlight())

    /// Told when a response has been written (the server's ``AcceptGate`` frees its thread).
    private let responseEnded: (@Sendable () -> Void)?

    init(server: TestServer, handler: @escaping TestServer.Handler, responseEnded: (@Sendable () -> Void)? = nil) {
        self.server = server
        self.handler = handler
        self.responseEnded = responseEnded
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = Data()
            let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
            inFlight.withLock { $0.path = path }
            answeredEarly = path.hasPrefix("/early")
            if answeredEarly {
                // As a proxy refusing an upload does: answer before the body has arrived.
                let request = ReceivedRequest(method: head.method.rawValue, uri: head.uri, headers: head.headers, body: Data())
                server.log.withLock { $0.requests.append(request) }
                run(request, on: context.channel)
            }
        case .body(var buffer):
            if answeredEarly { return }
            server.log.withLock { $0.bodyBytesArrived += buffer.readableBytes }
            body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        case .end:
            guard let head, !answeredEarly else { return }
            let request = ReceivedRequest(method: head.method.rawValue, uri: head.uri, headers: head.headers, body: body)
            server.log.withLock { $0.requests.append(request) }
            run(request, on: context.channel)
        }
    }

    private func run(_ request: ReceivedRequest, on channel: any Channel) {
        let inFlight = self.inFlight
        let handler = self.handler
        let responseEnded = self.responseEnded
        let responder = Responder(channel: channel) {
            inFlight.withLock { $0 = InFlight() }
            responseEnded?()
        } isIdle: {
            inFlight.withLock { $0.path == nil }
        }
        inFlight.withLock { $0.path = request.path }
        let task = Task {
            do {
                try await handler(request, responder)
            } catch {
                await responder.close()
            }
        }
        inFlight.withLock { state in
            if state.path != nil { state.task = task }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        let early = inFlight.withLock { state in
            defer { state = InFlight() }
            return state
        }
        if let path = early.path {
            server.log.withLock { $0.disconnects.append(path) }
            early.task?.cancel()
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A refused WebSocket upgrade is reported here, then answered as plain HTTP.
        if error is NIOWebSocketUpgradeError { return }
        context.close(promise: nil)
    }
}
