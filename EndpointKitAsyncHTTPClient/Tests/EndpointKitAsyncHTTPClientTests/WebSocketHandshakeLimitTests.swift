import EndpointKit
import NIOPosix
import NIOSSL
import XCTest

@testable import EndpointKitAsyncHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A WebSocket handshake ends, as a request does, when no one answers it.
final class WebSocketHandshakeLimitTests: XCTestCase {
    /// A host that never answers the connection: the call's time limit ends it, as
    /// `timedOut`, as it ends a request (it was a `URLError` -1, "Connect timeout").
    func testAHostThatDoesNotAnswerTimesOut() async throws {
        let blackHole = try BlackHoleListener()
        defer { blackHole.close() }
        let client = AsyncHTTPClientClient(baseURL: blackHole.url, timeout: 0.5)
        let started = Date()
        do {
            _ = try await client.webSocket(SocketEndpoint())
            XCTFail("a black hole answered")
        } catch EndpointKitError.timedOut(_, let limit) {
            XCTAssertEqual(limit, 0.5)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        try await client.shutdown()
    }

    /// A server that takes the connection and never answers the handshake, with no time limit
    /// on the call: the handshake ends at the idle limit (60 s; 0.5 s here) instead of waiting
    /// for ever.
    func testAHandshakeNoOneAnswersEndsAtTheIdleLimit() async throws {
        let faults = FaultRoutes()
        let server = try await TestServer.start(faults.handler)
        let request = URLRequest(url: server.baseURL.appendingPathComponent("hold").appending(queryItems: [
            URLQueryItem(name: "key", value: "silent"), URLQueryItem(name: "seconds", value: "30"),
        ]))
        let opening = Task {
            try await NIOWebSocketChannel.open(
                request, group: MultiThreadedEventLoopGroup.singleton, tls: .makeClientConfiguration(), timeout: nil, idleLimit: 0.5)
        }
        // If the handshake waited for ever, the test would: it is cancelled after 10 s.
        let watchdog = Task {
            try await Task.sleep(nanoseconds: 10_000_000_000)
            opening.cancel()
        }
        let result = await opening.result
        watchdog.cancel()
        guard case .failure(EndpointKitError.timedOut(_, let limit)) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(limit, 0.5)
        XCTAssertEqual(faults.count("silent"), 1, "the handshake did not reach the server")
        await server.shutdown()
    }
}
