import EndpointKit
import Foundation
import NIOCore
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A WebSocket at `path` on the test server (see `WebSocketRoutes`), its handshake carrying
/// `headers`.
struct SocketEndpoint: WebSocketEndpoint {
    var path = "ws/echo"
    var pingInterval: TimeInterval?
    var headers: [String: String] = [:]
    func makeRequest() throws -> URLRequest { try URLRequest(.get, path, headers: headers) }
}

/// A handshake the server refuses with 403, its answer's body written without end: lines of
/// `size` bytes every 10 ms (`tick`, 5 bytes, by default).
struct EndlessAnswer: WebSocketEndpoint {
    var size: Int?
    func makeRequest() throws -> URLRequest {
        let size = size.map { [URLQueryItem(name: "size", value: "\($0)")] } ?? []
        return try URLRequest(.get, "endless", query: [URLQueryItem(name: "status", value: "403")] + size)
    }
}

/// What every client that opens WebSockets must do, against the in-process server. Run by
/// each client package whose WebSockets work on this machine.
struct WebSocketScenarios: Sendable {
    let name: String
    /// Makes a client whose requests go through `adapter`.
    let makeClient: @Sendable (any RequestAdapter) -> any Client
    let close: @Sendable (any Client) async -> Void
    /// Where the server is; `https` when it speaks TLS.
    var baseURL: @Sendable (TestServer) -> URL = { $0.baseURL }
    var tls: (@Sendable (any Channel) throws -> Void)?
    var cancellations = 50

    var all: [(String, @Sendable (TestServer) async throws -> Void)] {
        [
            ("echo text and binary", echo), ("adapters apply to the handshake", adaptersApply),
            ("dot segments in the path", dotSegments),
            ("server closes with a code", serverCloses), ("a close frame that breaks the protocol", closeBreakingTheProtocol),
            ("frames that break the protocol", framesBreakingTheProtocol),
            ("client closes", clientCloses),
            ("a 101 that does not accept", answerThatDoesNotAccept), ("subprotocols", subprotocols), ("extensions", extensions),
            ("refused handshake", refusedHandshake), ("refused handshake, endless body", refusedHandshakeEndlessBody),
            ("refused handshake, trickling body", refusedHandshakeTricklingBody), ("dropped connection throws", droppedConnection),
            ("connection refused", connectionRefused), ("reset during the handshake", resetDuringTheHandshake),
            ("frames sent with the handshake", framesWithTheHandshake), ("closed with the handshake", closedWithTheHandshake),
            ("dropped with the handshake", droppedWithTheHandshake),
            ("cancelling the reader ends it", cancellation), ("10,000 messages in order", manyMessagesInOrder),
            ("pings find a peer that is gone", pingsFindAGonePeer),
        ]
    }

    func runAll() async throws {
        // SCENARIO=<part of a name> runs only the scenarios whose name contains it.
        let only = ProcessInfo.processInfo.environment["SCENARIO"]
        for (scenario, run) in all where only.map({ scenario.contains($0) }) ?? true {
            let server = try await TestServer.start(tls: tls, FaultRoutes().handler)
            // A scenario waiting for what never comes fails instead of hanging the run: it is
            // cancelled, and the server goes.
            let running = Task { try await run(server) }
            let watchdog = Task { [name] in
                try await Task.sleep(nanoseconds: 60_000_000_000)
                XCTFail("\(name), \(scenario): still running after 60 s; cancelled")
                running.cancel()
                await server.shutdown()
            }
            do {
                try await running.value
            } catch {
                XCTFail("\(name), \(scenario): \(error)")
            }
            watchdog.cancel()
            await server.shutdown()
        }
    }

    private func with<T>(
        _ server: TestServer, headers: [String: String] = [:], _ body: (any Client) async throws -> T
    ) async throws -> T {
        try await using(makeClient(BaseRequestAdapter(baseURL: baseURL(server), headers: headers)), close: close, body)
    }

    func echo(_ server: TestServer) async throws {
        try await with(server) { client in
            let socket = try await client.webSocket(SocketEndpoint())
            try await socket.send(.text("héllo"))
            try await socket.ping()
            let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
            try await socket.send(.binary(bytes))
            var iterator = socket.makeAsyncIterator()
            let first = try await iterator.next()
            let second = try await iterator.next()
            XCTAssertEqual(first, .text("héllo"), name)
            XCTAssertEqual(second, .binary(bytes), name)
            await socket.close()
        }
    }

    /// `.` and `..` in the handshake's path are resolved before it is sent, as for every call.
    func dotSegments(_ server: TestServer) async throws {
        try await with(server) { client in
            let socket = try await client.webSocket(SocketEndpoint(path: "ws/./x/../echo"))
            XCTAssertEqual(server.requests.last?.uri, "/ws/echo", name)
            try await socket.send(.text("dots"))
            var iterator = socket.makeAsyncIterator()
            let echoed = try await iterator.next()
            XCTAssertEqual(echoed, .text("dots"), name)
            await socket.close()
        }
    }

    func adaptersApply(_ server: TestServer) async throws {
        try await with(server, headers: ["Authorization": "Bearer s3cret"]) { client in
            let socket = try await client.webSocket(SocketEndpoint())
            try await socket.send(.text("authorization"))
            var iterator = socket.makeAsyncIterator()
            let answer = try await iterator.next()
            XCTAssertEqual(answer, .text("Bearer s3cret"), name)
            XCTAssertEqual(socket.request.value(forHTTPHeaderField: "Authorization"), "Bearer s3cret", name)
            await socket.close()
        }
        // A user and password in the URL are Basic credentials, as for every other call.
        var parts = try XCTUnwrap(URLComponents(url: baseURL(server), resolvingAgainstBaseURL: true))
        (parts.user, parts.password) = ("ann", "p@ss")
        let withCredentials = try XCTUnwrap(parts.url)
        try await using(makeClient(BaseRequestAdapter(baseURL: withCredentials)), close: close) { client in
            let socket = try await client.webSocket(SocketEndpoint())
            try await socket.send(.text("authorization"))
            var iterator = socket.makeAsyncIterator()
            let answer = try await iterator.next()
            XCTAssertEqual(answer, .text("Basic " + Data("ann:p@ss".utf8).base64EncodedString()), name)
            await socket.close()
        }
    }

    func serverCloses(_ server: TestServer) async throws {
        try await with(server) { client in
            let socket = try await client.webSocket(SocketEndpoint())
            try await socket.send(.text("first"))
            try await socket.send(.text("close 4001 going home"))
            try await expectServerClose(socket, server, after: [.text("first")], code: 4001, reason: "going home")
            do {
                try await socket.send(.text("after"))
                XCTFail("\(name): send after the server closed succeeded")
            } catch EndpointKitError.webSocketClosed(_, let code) {
                XCTAssertEqual(code, WebSocketCloseCode(rawValue: 4001), "\(name): the send's error names the server's code")
            }
        }
    }

    /// A close frame with a code that is never sent (1005, 1006, 1015, or outside 1000-4999)
    /// or a body of one byte fails the socket as a protocol error (1002), as a control frame
    /// over 125 bytes does, instead of ending it as closed with that code.
    func closeBreakingTheProtocol(_ server: TestServer) async throws {
        try await with(server) { client in
            for command in ["close 5000", "close 1005", "close 999", "close-short"] {
                try await expectProtocolError(client, after: command)
            }
        }
    }

    /// A masked frame, a reserved bit (on a whole message or on a fragment) and an undefined
    /// opcode fail the socket as protocol errors (1002), and the server is told so; nothing
    /// after the frame is delivered.
    func framesBreakingTheProtocol(_ server: TestServer) async throws {
        try await with(server) { client in
            let commands = ["masked", "reserved-bit", "reserved-bit-fragment", "undefined-opcode"]
            for (index, command) in commands.enumerated() {
                try await expectProtocolError(client, after: command)
                let told = await waitUntil(timeout: 10) { server.webSocketEnds.count == index + 1 }
                XCTAssertTrue(told, "\(name), \(command): \(server.webSocketEnds)")
                XCTAssertEqual(server.webSocketEnds.last, "closed 1002", "\(name), \(command)")
            }
        }
    }

    /// Sends `command` on a new socket, and expects the socket to fail with a protocol error
    /// (1002) before it yields anything.
    private func expectProtocolError(_ client: any Client, after command: String) async throws {
        let socket = try await client.webSocket(SocketEndpoint())
        try await socket.send(.text(command))
        do {
            for try await message in socket { XCTFail("\(name), \(command): \(message)") }
            XCTFail("\(name), \(command): ended as closed with \(socket.closeCode.map { "\($0.rawValue)" } ?? "no code")")
        } catch EndpointKitError.webSocketClosed(_, let code) {
            XCTAssertEqual(code, .protocolError, "\(name), \(command)")
        }
    }

    /// Reads `socket` to its end: `messages`, then the server's close with `code` and `reason`,
    /// which the client answers.
    private func expectServerClose(
        _ socket: WebSocket, _ server: TestServer, after messages: [WebSocketMessage], code: UInt16, reason: String
    ) async throws {
        var received: [WebSocketMessage] = []
        for try await message in socket { received.append(message) }
        XCTAssertEqual(received, messages, name)
        XCTAssertEqual(socket.closeCode, WebSocketCloseCode(rawValue: code), name)
        XCTAssertEqual(socket.closeReason, reason, name)
        let answered = await server.waitForWebSocketEnds(["closed \(code)"])
        XCTAssertTrue(answered, "\(name): the client did not answer the close: \(server.webSocketEnds)")
    }

    func clientCloses(_ server: TestServer) async throws {
        try await with(server) { client in
            let socket = try await client.webSocket(SocketEndpoint())
            try await socket.send(.text("before"))
            let reader = Task { () -> [WebSocketMessage] in
                var received: [WebSocketMessage] = []
                for try await message in socket { received.append(message) }
                return received
            }
            _ = await waitUntil(timeout: 5) { server.requests.count == 1 }
            try await Task.sleep(nanoseconds: 50_000_000)
            await socket.close(code: .normalClosure, reason: "done")
            let received = try await reader.value
            XCTAssertEqual(received, [.text("before")], name)
            XCTAssertEqual(socket.closeCode, .normalClosure, name)
            let seen = await server.waitForWebSocketEnds(["closed 1000"])
            XCTAssertTrue(seen, "\(name): \(server.webSocketEnds)")
            do {
                try await socket.send(.text("after"))
                XCTFail("\(name): send after close succeeded")
            } catch EndpointKitError.webSocketClosed(_, let code) {
                XCTAssertEqual(code, .normalClosure, "\(name): the send's error names the code that closed the socket")
            }
        }
        // A reason past a close frame's 125 bytes is cut (whole characters), and a code that is
        // never sent (1006) goes as a close without one: the peer would fail the connection.
        for (code, reason, seen) in [(WebSocketCloseCode.goingAway, String(repeating: "é", count: 100), "closed 1001"), (.abnormalClosure, "", "closed none")] {
            try await with(server) { client in
                let socket = try await client.webSocket(SocketEndpoint())
                try await socket.send(.text("before"))
                var iterator = socket.makeAsyncIterator()
                _ = try await iterator.next()
                let ends = server.webSocketEnds.count
                await socket.close(code: code, reason: reason)
                let answered = await waitUntil(timeout: 5) { server.webSocketEnds.count > ends }
                XCTAssertTrue(answered, "\(name), \(code)")
                XCTAssertEqual(server.webSocketEnds.last, seen, "\(name), \(code): \(server.webSocketEnds)")
            }
        }
    }

    /// Frames the server writes in the same segment as its 101 (as Python's websockets can) are
    /// all delivered, fragments joined, and the socket goes on working.
    func framesWithTheHandshake(_ server: TestServer) async throws {
        try await with(server) { client in
            let socket = try await client.webSocket(SocketEndpoint(path: "ws/greeting"))
            var iterator = socket.makeAsyncIterator()
            let first = try await iterator.next()
            let second = try await iterator.next()
            XCTAssertEqual(first, .text("welcome"), name)
            XCTAssertEqual(second, .text("fragmented"), name)
            try await socket.send(.text("still there?"))
            let echo = try await iterator.next()
            XCTAssertEqual(echo, .text("still there?"), name)
            await socket.close()
        }
    }

    /// A server that closes in the same segment as its 101 is heard: its message, code and reason.
    func closedWithTheHandshake(_ server: TestServer) async throws {
        try await with(server) { client in
            let socket = try await client.webSocket(SocketEndpoint(path: "ws/greeting-then-close"))
            try await expectServerClose(socket, server, after: [.text("welcome")], code: 4000, reason: "bye")
        }
    }

    /// A connection that ends at once after the 101, without a closing handshake, ends the
    /// reader's loop with the error of a dropped connection (it waited for ever before), after
    /// the message that came in the same segment (it was lost when the end was read with it).
    func droppedWithTheHandshake(_ server: TestServer) async throws {
        try await with(server) { client in
            let socket = try await client.webSocket(SocketEndpoint(path: "ws/greeting-then-drop"))
            var received: [WebSocketMessage] = []
            await expectTransportFailure(name: name, .networkConnectionLost) { for try await message in socket { received.append(message) } }
            XCTAssertEqual(received, [.text("welcome")], "\(name): the message that came with the end")
            XCTAssertEqual(socket.closeCode, .abnormalClosure, name)
        }
    }

    func refusedHandshake(_ server: TestServer) async throws {
        try await with(server) { client in
            do {
                _ = try await client.webSocket(SocketEndpoint(path: "missing"))
                XCTFail("\(name): a plain HTTP path accepted the upgrade")
            } catch let error as EndpointKitError {
                XCTAssertEqual(error.statusCode, 404, "\(name): \(error)")
            }
        }
    }

    /// A 101 whose `Sec-WebSocket-Accept` answers another key, or that switches to another
    /// protocol, opens no socket (RFC 6455, 4.1): the call fails as a bad server response.
    func answerThatDoesNotAccept(_ server: TestServer) async throws {
        try await with(server) { client in
            for (form, words) in [("wrong-accept", "Sec-WebSocket-Accept"), ("other-protocol", "another protocol")] {
                await expectTransportFailure(name: "\(name), \(form)", .badServerResponse, saying: words) {
                    _ = try await client.webSocket(SocketEndpoint(path: "upgrade-answer?form=\(form)"))
                }
            }
        }
    }

    /// The subprotocol the server chose is the socket's; one the handshake did not offer
    /// fails the call (RFC 6455, 4.1) without naming it (such fields can carry credentials),
    /// and the connection is cut.
    func subprotocols(_ server: TestServer) async throws {
        func offering(_ path: String, _ offered: String?) -> SocketEndpoint {
            SocketEndpoint(path: path, headers: offered.map { ["Sec-WebSocket-Protocol": $0] } ?? [:])
        }
        try await with(server) { client in
            let chosen = try await client.webSocket(offering("ws/subprotocol", "chat.v2, chat.v1"))
            XCTAssertEqual(chosen.subprotocol, "chat.v1", name)
            await chosen.close()
            let none = try await client.webSocket(offering("ws/subprotocol", nil))
            XCTAssertNil(none.subprotocol, name)
            await none.close()
            for offered in ["chat.v1", nil] {
                await expectTransportFailure(name: "\(name), offered \(offered ?? "none")", .badServerResponse, saying: "did not offer") {
                    do {
                        _ = try await client.webSocket(offering("ws/subprotocol-unoffered", offered))
                    } catch {
                        XCTAssertFalse("\(error)".contains("not-offered"), "\(name): \(error)")
                        throw error
                    }
                }
            }
            let cut = await server.waitForWebSocketEnds(["closed 1000", "closed 1000", "dropped", "dropped"], timeout: 10)
            XCTAssertTrue(cut, "\(name): \(server.webSocketEnds)")
        }
    }

    /// The client offers no extension (it speaks none), even when the request asks for one,
    /// so the socket works with a server that would take it up; a 101 that chooses one all
    /// the same fails the call, as RFC 6455 (4.1) asks, and the connection is cut.
    func extensions(_ server: TestServer) async throws {
        try await with(server) { client in
            let offering = ["Sec-WebSocket-Extensions": "permessage-deflate; client_max_window_bits"]
            let socket = try await client.webSocket(SocketEndpoint(headers: offering))
            XCTAssertNil(server.requests.last?.headers.first(name: "Sec-WebSocket-Extensions"), name)
            try await socket.send(.text("plain"))
            var iterator = socket.makeAsyncIterator()
            let echoed = try await iterator.next()
            XCTAssertEqual(echoed, .text("plain"), name)
            await socket.close()
            await expectTransportFailure(name: name, .badServerResponse, saying: "extension") {
                _ = try await client.webSocket(SocketEndpoint(path: "ws/extension"))
            }
            let cut = await server.waitForWebSocketEnds(["closed 1000", "dropped"], timeout: 10)
            XCTAssertTrue(cut, "\(name): \(server.webSocketEnds)")
        }
    }

    /// A refused handshake whose answer's body never ends: the socket fails with the status and
    /// the body's first 64 KiB, and the connection is closed.
    func refusedHandshakeEndlessBody(_ server: TestServer) async throws {
        try await with(server) { client in
            do {
                _ = try await client.webSocket(EndlessAnswer(size: 4096))
                XCTFail("\(name): a plain HTTP path accepted the upgrade")
            } catch EndpointKitError.unacceptableStatus(let failure) {
                XCTAssertEqual(failure.statusCode, 403, name)
                XCTAssertEqual(failure.body.count, HTTPFailure.bodyLimit, name)
            }
            // Over TLS the client's close waits for the server's close_notify (NIOSSL's
            // shutdown timeout, 5 s) while the server is still writing: the error comes at once,
            // the disconnect within seconds.
            let disconnected = await server.waitForDisconnect(of: "/endless", timeout: 20)
            XCTAssertTrue(disconnected, name)
        }
    }

    /// A refused handshake whose answer's body trickles without end is read within the
    /// attempt's time limit (a call deadline of 1 s here): the socket fails with the status and
    /// the bytes that came.
    func refusedHandshakeTricklingBody(_ server: TestServer) async throws {
        try await with(server) { client in
            do {
                _ = try await CallDeadline.within(1) { try await client.webSocket(EndlessAnswer()) }
                XCTFail("\(name): a plain HTTP path accepted the upgrade")
            } catch EndpointKitError.unacceptableStatus(let failure) {
                XCTAssertEqual(failure.statusCode, 403, name)
                XCTAssertTrue(failure.body.starts(with: Data("tick\n".utf8)), name)
                XCTAssertLessThan(failure.body.count, HTTPFailure.bodyLimit, name)
            }
            // Over TLS the client's close waits for the server's close_notify (NIOSSL's
            // shutdown timeout, 5 s) while the server is still writing: the error comes at once,
            // the disconnect within seconds.
            let disconnected = await server.waitForDisconnect(of: "/endless", timeout: 20)
            XCTAssertTrue(disconnected, name)
        }
    }

    /// A socket that cannot connect fails in words, as every other call does.
    func connectionRefused(_: TestServer) async throws {
        let url = baseURL(try await TestServer.stopped(tls: tls))
        try await using(makeClient(BaseRequestAdapter(baseURL: url)), close: close) { client in
            await expectTransportFailure(name: name, .cannotConnectToHost, saying: "connect to \(url.host ?? "") port \(url.port ?? 0)") {
                _ = try await client.webSocket(SocketEndpoint())
            }
        }
    }

    /// A connection reset before the 101 fails in words, as every other call does. Over TLS the
    /// test server says close_notify before the reset, so the client sees a clean close.
    func resetDuringTheHandshake(_ server: TestServer) async throws {
        let words = tls == nil ? "Connection reset by peer" : "closed"
        try await with(server) { client in
            await expectTransportFailure(name: name, .networkConnectionLost, saying: words) {
                _ = try await client.webSocket(SocketEndpoint(path: "reset"))
            }
        }
    }

    func droppedConnection(_ server: TestServer) async throws {
        try await with(server) { client in
            let socket = try await client.webSocket(SocketEndpoint())
            try await socket.send(.text("drop"))
            // Ending without an error would mean the dropped connection ended like a close.
            await expectTransportFailure(name: name, .networkConnectionLost) { for try await _ in socket {} }
            XCTAssertEqual(socket.closeCode, .abnormalClosure, name)
        }
    }

    /// With a ping interval, a socket whose peer answers pings stays open through several of
    /// them; one whose peer stops answering (its connection still open) fails with `timedOut`
    /// within two intervals, and its connection is cut. Without one, nothing is sent unasked.
    func pingsFindAGonePeer(_ server: TestServer) async throws {
        try await with(server) { client in
            let alive = try await client.webSocket(SocketEndpoint(pingInterval: 0.2))
            try await Task.sleep(nanoseconds: 700_000_000)
            try await alive.send(.text("still here"))
            var messages = alive.makeAsyncIterator()
            let echo = try await messages.next()
            XCTAssertEqual(echo, .text("still here"), name)
            XCTAssertNil(alive.closeCode, name)
            await alive.close()

            let gone = try await client.webSocket(SocketEndpoint(pingInterval: 0.3))
            try await gone.send(.text("mute"))
            let start = Date()
            do {
                for try await message in gone { XCTFail("\(name): \(message) from a muted peer") }
                XCTFail("\(name): the socket of a gone peer ended without an error")
            } catch EndpointKitError.timedOut(let url, let limit) {
                XCTAssertEqual(url?.path, "/ws/echo", name)
                XCTAssertEqual(limit, 0.3, name)
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 2, "\(name): the gone peer was waited for")
            XCTAssertEqual(gone.closeCode, .abnormalClosure, name)
            let cut = await waitUntil(timeout: 10) { server.webSocketEnds.contains("dropped") }
            XCTAssertTrue(cut, "\(name): the connection to the gone peer stayed open: \(server.webSocketEnds)")
        }
    }

    /// Cancels a task reading a socket at a random moment, many times: each loop ends, and the
    /// server sees every connection end.
    func cancellation(_ server: TestServer) async throws {
        try await with(server) { client in
            for _ in 0..<cancellations {
                let socket = try await client.webSocket(SocketEndpoint())
                let reader = Task {
                    try await socket.send(.text("burst 200"))
                    var count = 0
                    for try await _ in socket { count += 1 }
                    return count
                }
                try await Task.sleep(nanoseconds: UInt64.random(in: 0...3_000_000))
                reader.cancel()
                let count = (try? await reader.value) ?? 0
                XCTAssertLessThanOrEqual(count, 200, name)
            }
            let ended = await waitUntil(timeout: 10) { server.webSocketEnds.count == cancellations }
            XCTAssertTrue(ended, "\(name): \(server.webSocketEnds.count) of \(cancellations) sockets ended")
        }
    }

    /// 10,000 messages arrive whole and in order, read slowly enough that the library must pause.
    func manyMessagesInOrder(_ server: TestServer) async throws {
        try await with(server) { client in
            let socket = try await client.webSocket(SocketEndpoint())
            try await socket.send(.text("burst 10000"))
            var expected = 0
            for try await message in socket {
                XCTAssertEqual(message, .text(String(expected)), name)
                expected += 1
                if expected % 1000 == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
                if expected == 10_000 { break }
            }
            XCTAssertEqual(expected, 10_000, name)
            await socket.close()
        }
    }
}
