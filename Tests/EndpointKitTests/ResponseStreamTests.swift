import Foundation
import XCTest

@_spi(Locking) @_spi(Transport) @testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class ResponseStreamTests: ServerTestCase {
    override var routes: TestServer.Handler { TransferRoutes.handler }

    func testChunksArriveBeforeTheBodyEnds() async throws {
        let stream = try await client.stream(PathEndpoint(path: "stream"))
        XCTAssertEqual(stream.response.statusCode, 200)
        var iterator = stream.makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first.map { String(decoding: $0, as: UTF8.self) }, "alpha\nbe")
        // The server writes the rest over 400 ms after the first chunk; a client that held the
        // body until its end would hand over the rest at once. (Measured from the first chunk,
        // so a busy machine cannot fail it.)
        let firstArrived = Date()
        while try await iterator.next() != nil {}
        XCTAssertGreaterThan(Date().timeIntervalSince(firstArrived), 0.3, "the first chunk came before the rest")
    }

    func testLinesSplitAcrossChunksArriveWhole() async throws {
        var lines: [String] = []
        for try await line in try await client.stream(PathEndpoint(path: "stream")).lines { lines.append(line) }
        XCTAssertEqual(lines, ["alpha", "beta", "gamma", "delta", "last"])
    }

    func testAnErrorStatusFailsBeforeStreamingWithItsBody() async throws {
        do {
            _ = try await client.stream(PathEndpoint(path: "status", query: [.init(name: "code", value: "403"), .init(name: "body", value: "no")]))
            XCTFail("expected an error")
        } catch let EndpointKitError.unacceptableStatus(failure) {
            XCTAssertEqual(failure.statusCode, 403)
            XCTAssertEqual(failure.bodyText, "no")
        }
        XCTAssertEqual(observed.calls.count, 1)
    }

    /// An endpoint that takes a status as it is (as a generated OpenAPI operation does) gets
    /// that answer streamed whole, unvalidated; the same endpoint refusing it is validated.
    func testAStatusTheEndpointAcceptsStreamsWithoutValidation() async throws {
        let query = [URLQueryItem(name: "code", value: "403"), URLQueryItem(name: "body", value: "no")]
        let validated = Locked(0)
        let accepting = AcceptingEndpoint(path: "status", query: query, accepted: [403], validated: validated)
        let stream = try await client.stream(accepting)
        var body = Data()
        for try await chunk in stream { body.append(chunk) }
        XCTAssertEqual(stream.head.statusCode, 403)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "no")
        XCTAssertEqual(validated.withLock { $0 }, 0, "validate was asked about an accepted status")

        let refusing = AcceptingEndpoint(path: "status", query: query, accepted: [], validated: validated)
        do {
            _ = try await client.stream(refusing)
            XCTFail("expected an error")
        } catch let EndpointKitError.unacceptableStatus(failure) {
            XCTAssertEqual(failure.statusCode, 403)
        }
        XCTAssertGreaterThan(validated.withLock { $0 }, 0)
    }

    /// A body of declared length ends for its reader once all of it has come, and its
    /// connection goes back to the pool: answers streamed one after another, each read to its
    /// end, small (one chunk) and larger (many), all take one connection.
    func testStreamsOfADeclaredLengthEndWholeAndKeepTheirConnection() async throws {
        for count in [1_000, 1_000, 300_000, 1_000, 300_000, 1] {
            var bytes = 0
            for try await chunk in try await client.stream(PathEndpoint(path: "bytes", query: [.init(name: "count", value: "\(count)")])) {
                bytes += chunk.count
            }
            XCTAssertEqual(bytes, count)
        }
        XCTAssertEqual(server.log.withLock { $0.connections }, 1)
        XCTAssertEqual(server.disconnects, [])
        XCTAssertEqual(observed.calls.count, 6)
    }

    func testLeavingTheLoopEarlyClosesTheConnection() async throws {
        var count = 0
        for try await _ in try await client.stream(PathEndpoint(path: "endless")).lines {
            count += 1
            if count == 5 { break }
        }
        let disconnected = await server.waitForDisconnect(of: "/endless")
        XCTAssertTrue(disconnected)
        XCTAssertEqual(observed.calls.count, 1)
    }

    func testCancellingTheTaskEndsTheStreamAndClosesTheConnection() async throws {
        let client = self.client!
        let task = Task {
            var count = 0
            for try await _ in try await client.stream(PathEndpoint(path: "endless")).lines { count += 1 }
            return count
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        task.cancel()
        let result = await task.result
        XCTAssertTrue(result.error is CancellationError, "\(result)")
        let disconnected = await server.waitForDisconnect(of: "/endless")
        XCTAssertTrue(disconnected)
    }

    func testServerSentEventsReconnectWithLastEventID() async throws {
        struct Tick: Decodable, Equatable { let n: Int }
        var ticks: [Int] = []
        var ids: [String?] = []
        for try await event in client.events(PathEndpoint(path: "sse")) {
            XCTAssertEqual(event.event, "tick")
            ticks.append(try JSONDecoder().decode(Tick.self, from: Data(event.data.utf8)).n)
            ids.append(event.id)
            if ticks.count == 6 { break }
        }
        XCTAssertEqual(ticks, [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(ids.last, "6")
        let resumed = server.requests.filter { $0.path == "/sse" }
        XCTAssertEqual(resumed.count, 2)
        XCTAssertEqual(resumed.last?.header("Last-Event-ID"), "3")
        XCTAssertEqual(resumed.first?.header("Accept"), "text/event-stream")
    }

    /// A reconnection time too long to count in nanoseconds (a server's typo, or its malice)
    /// does not crash the process: the events wait to reconnect, and end when the reader
    /// cancels.
    func testAHugeReconnectionTimeIsWaitedNotACrash() async throws {
        let client: URLSessionClient = try XCTUnwrap(client)
        let endpoint = PathEndpoint(path: "sse-retry", query: [URLQueryItem(name: "ms", value: "99999999999999")])
        let first = Guarded<String?>(nil)
        let reader = Task {
            for try await event in client.events(endpoint) { first.withLock { $0 = event.data } }
        }
        for _ in 0..<200 where first.withLock({ $0 }) == nil { try await Task.sleep(nanoseconds: 10_000_000) }
        // Time to reach the wait before reconnecting.
        try await Task.sleep(nanoseconds: 300_000_000)
        reader.cancel()
        try await reader.value
        XCTAssertEqual(first.withLock { $0 }, "once")
        XCTAssertEqual(server.requests.filter { $0.path == "/sse-retry" }.count, 1, "no reconnection yet")
    }

    func testWithoutReconnectTheEventsEndWithTheStream() async throws {
        var count = 0
        for try await _ in client.events(PathEndpoint(path: "sse"), reconnect: false) { count += 1 }
        XCTAssertEqual(count, 3)
    }

    func testASlowReaderOfAFastStreamIsStoppedNotBuffered() async throws {
        let stream = try await client.stream(PathEndpoint(path: "big-stream"))
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()
        // Read nothing more until the client has given up on the connection: how long the
        // server takes to send 16 MiB depends on the host, so no fixed pause is long enough.
        let stopped = await server.waitForDisconnect(of: "/big-stream", timeout: 120)
        XCTAssertTrue(stopped, "the unread stream was not stopped")
        do {
            while try await iterator.next() != nil {}
            XCTFail("a 1 GB stream read this slowly cannot end normally")
        } catch let EndpointKitError.consumerTooSlow(_, limit) {
            XCTAssertEqual(limit, 16 << 20)
        }
    }

    func testEventsDecodeToTypedValues() async throws {
        struct Tick: Decodable, Equatable { let n: Int }
        var ticks: [Tick] = []
        for try await tick in client.events(PathEndpoint(path: "sse"), reconnect: false).decoded(as: Tick.self) {
            ticks.append(tick)
        }
        XCTAssertEqual(ticks, [Tick(n: 1), Tick(n: 2), Tick(n: 3)])
        XCTAssertThrowsError(try ServerSentEvent(data: "{\"m\":1}").decode(Tick.self)) { error in
            XCTAssertTrue("\(error)".contains("key 'n' not found"), "\(error)")
        }
    }
}

/// Takes the statuses in `accepted` as they are; counts the times it is asked to validate.
private struct AcceptingEndpoint: Endpoint, StatusAccepting {
    typealias Content = Void
    let path: String
    let query: [URLQueryItem]
    let accepted: Set<Int>
    let validated: Locked<Int>

    func makeRequest() throws -> URLRequest { try URLRequest(.get, path, query: query) }

    func accepts(statusCode: Int) -> Bool { accepted.contains(statusCode) }

    func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        validated.withLock { $0 += 1 }
        try defaultValidation(request, response: response, data: data)
    }
}
