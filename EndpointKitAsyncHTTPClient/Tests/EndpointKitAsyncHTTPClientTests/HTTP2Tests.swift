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
