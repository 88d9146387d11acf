import EndpointKit
import EndpointKitAsyncHTTPClient
import XCTest

/// HTTP/2 by ALPN over TLS: many calls over one connection, and HTTP/1.1 when asked for.
final class HTTP2Tests: XCTestCase {
    private typealias Answer = HTTP2TestServer.Answer

    /// Makes `count` calls at once and returns their answers.
    private func answers(_ client: AsyncHTTPClientClient, count: Int) async throws -> [Answer] {
        try await withThrowingTaskGroup(of: Answer.self) { group in
            for _ in 0..<count { group.addTask { try await client.request(.get("protocol", as: Answer.self)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    func testHTTP2CarriesAHundredCallsOverOneConnection() async throws {
        let authority = try TestAuthority(name: "EndpointKit Test CA")
        let server = try await HTTP2TestServer.start(try authority.server())
        let client = AsyncHTTPClientClient(baseURL: server.baseURL, tlsConfiguration: authority.clientTLS())
        let answers = try await answers(client, count: 100)
        XCTAssertEqual(Set(answers.map(\.protocolName)), ["h2"])
        XCTAssertEqual(Set(answers.map(\.connection)).count, 1)
        XCTAssertEqual(server.connectionCount, 1)
        try await client.shutdown()
        await server.shutdown()
    }

    /// Makes `count` calls, `width` at a time, and counts how each ended: the protocol it was
    /// answered over, or the error it threw.
    private func outcomes(count: Int, width: Int, _ call: @escaping @Sendable () async throws -> Answer) async -> [String: Int] {
        let next = Guarded(0)
        let outcomes = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<width {
                group.addTask {
                    var outcomes: [String] = []
                    while next.withLock({ made in
                        made += 1
                        return made <= count
                    }) {
                        do {
                            outcomes.append(try await call().protocolName)
                        } catch {
                            outcomes.append("\(error)")
                        }
                    }
                    return outcomes
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        return Dictionary(grouping: outcomes, by: { $0 }).mapValues(\.count)
    }

    /// A server that ends each connection with a GOAWAY after 100 streams, as nginx does after
    /// 1,000: the calls it will not answer, and those AsyncHTTPClient drops unsent as the
    /// connection closes, are sent again on a fresh one, and none fails (nor reads as
    /// cancelled). 20 at once, so that many race each GOAWAY.
    func testCallsCutOffByAGoAwayAreSentAgain() async throws {
        let authority = try TestAuthority(name: "EndpointKit Test CA")
        let server = try await HTTP2TestServer.start(try authority.server(), goAwayAfter: 100)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL, tlsConfiguration: authority.clientTLS())
        let outcomes = await outcomes(count: 1_000, width: 20) { try await client.request(.get("protocol", as: Answer.self)) }
        XCTAssertEqual(outcomes, ["h2": 1_000])
        XCTAssertGreaterThanOrEqual(server.connectionCount, 10, "every connection ended after 100 streams")
        try await client.shutdown()
        await server.shutdown()
    }

    /// Uploads to a server that answers before it has read the body, then resets the stream,
    /// as nginx does for a `413` or a `return`: every call gets its answer, over HTTP/1.1.
    func testAnAnswerBeforeTheBodyIsSentEndsTheUpload() async throws {
        let authority = try TestAuthority(name: "EndpointKit Test CA")
        let server = try await HTTP2TestServer.start(try authority.server())
        let client = AsyncHTTPClientClient(baseURL: server.baseURL, timeout: 10, tlsConfiguration: authority.clientTLS())
        let body = String(repeating: "A", count: 64 << 10)
        let outcomes = await outcomes(count: 400, width: 8) { try await client.request(.post("early", body: body, as: Answer.self)) }
        XCTAssertEqual(outcomes, ["http/1.1": 400])
        try await client.shutdown()
        await server.shutdown()
    }

    func testHTTP1CanBeForced() async throws {
        let authority = try TestAuthority(name: "EndpointKit Test CA")
        let server = try await HTTP2TestServer.start(try authority.server())
        let client = AsyncHTTPClientClient(baseURL: server.baseURL, tlsConfiguration: authority.clientTLS(), httpVersion: .http1Only)
        let answers = try await answers(client, count: 100)
        XCTAssertEqual(Set(answers.map(\.protocolName)), ["http/1.1"])
        // One call at a time per connection: 100 at once take more than one.
        XCTAssertGreaterThan(server.connectionCount, 1)
        XCTAssertLessThanOrEqual(server.connectionCount, 32)
        try await client.shutdown()
        await server.shutdown()
    }
}
