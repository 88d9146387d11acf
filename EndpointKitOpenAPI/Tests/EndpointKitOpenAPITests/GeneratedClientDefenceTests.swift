import EndpointKit
import EndpointKitAsyncHTTPClient
import EndpointKitOpenAPI
import Foundation
import OpenAPIRuntime
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client's session (credential refresh, cookies, redirects) and its overload defences
/// (deadline, concurrency limit, circuit breaker, hedging) serve generated calls as any other,
/// with both clients: each asserted by what reached the server.
final class GeneratedClientDefenceTests: XCTestCase {
    /// A client of each kind for a server, with adapters, an overload policy, a cookie jar of
    /// its own and no retries.
    typealias MakeClient = @Sendable (URL, [any RequestAdapter], OverloadPolicy) -> any EndpointKit.Client

    static let clients: [(String, MakeClient)] = [
        ("URLSessionClient", { url, adapters, overload in
            URLSessionClient(baseURL: url, adapters: adapters, timeout: 5, overload: overload, cookieStorage: CookieJar())
        }),
        ("AsyncHTTPClientClient", { url, adapters, overload in
            AsyncHTTPClientClient(baseURL: url, adapters: adapters, timeout: 5, cookieStorage: CookieJar(), overload: overload)
        }),
    ]

    /// Runs `body` with a generated client over each client, against a fresh server, with the
    /// adapters `adapters` makes for the server's routes.
    func withEachClient(
        overload: OverloadPolicy = .default, adapters: @escaping (FaultRoutes) -> [any RequestAdapter] = { _ in [] },
        _ body: (String, Client, TestServer, FaultRoutes) async throws -> Void
    ) async throws {
        try await withGeneratedClients(over: Self.clients.map { name, make in (name, { url, faults in make(url, adapters(faults), overload) }) }, body)
    }

    /// Ten generated calls rejected with a stale token at once cause one refresh, and each is
    /// sent again with the new token: the 401 reaches the client's `AuthenticatingAdapter`, not
    /// the generated code.
    func testARejectedCredentialIsRefreshedOnceForGeneratedCalls() async throws {
        let authenticators = Guarded<[TestAuthenticator]>([])
        try await withEachClient(adapters: { faults in
            let authenticator = TestAuthenticator(faults: faults)
            authenticators.withLock { $0.append(authenticator) }
            return [AuthenticatingAdapter(authenticator: authenticator, credential: Token(value: "stale"))]
        }) { name, client, server, faults in
            let attempts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 { group.addTask { try await client.authorized().ok.body.json.attempt } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(attempts.count, 10, name)
            XCTAssertEqual(authenticators.withLock { $0.last?.refreshes.withLock { $0 } }, 1, "\(name): one refresh for all")
            let token = faults.validToken.withLock { $0 }
            XCTAssertEqual(token, "token-refreshed-1", name)
            XCTAssertEqual(server.requests.filter { $0.header("Authorization") == "Bearer \(token)" }.count, 10, name)
        }
    }

    /// A generated call redirected with a cookie follows the redirect and sends the cookie on
    /// it, and on the next generated call: the client's redirects and cookie jar.
    func testRedirectsAndCookiesServeGeneratedCalls() async throws {
        try await withEachClient { name, client, server, _ in
            let echo = try await client.setCookies(query: .init(session: "abc")).ok.body.json
            XCTAssertEqual(echo.path, "/echo", "\(name): the redirect was followed")
            XCTAssertEqual(echo.headers.additionalProperties["cookie"], "session=abc", name)
            _ = try await client.echo(query: .init(q: "next"))
            XCTAssertEqual(server.requests.last?.header("Cookie"), "session=abc", name)
        }
    }

    /// A call deadline cuts a generated call short with a typed error; a concurrency limit of
    /// one holds generated calls to one at a time.
    func testADeadlineAndAConcurrencyLimitGuardGeneratedCalls() async throws {
        let limited = OverloadPolicy(concurrencyLimit: ConcurrencyLimit(maximumInFlight: 1))
        try await withEachClient(overload: limited) { name, client, _, faults in
            // Four calls, one at a time (before the call cut short, which the server goes on
            // holding after the client has given up).
            let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 { group.addTask { try await client.hold(query: .init(key: "queued", seconds: 0.1)).ok.body.json.attempt } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(answered.sorted(), [1, 2, 3, 4], name)
            XCTAssertEqual(faults.mostHeld, 1, name)
            let start = Date()
            do {
                _ = try await CallDeadline.within(0.3) { try await client.hold(query: .init(key: "late", seconds: 5)) }
                XCTFail("\(name): answered past the deadline")
            } catch let error as ClientError {
                guard case EndpointKitError.timedOut? = error.underlyingError as? EndpointKitError else {
                    return XCTFail("\(name): \(error.underlyingError)")
                }
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 2, name)
        }
    }

    /// A host that keeps answering 503 opens the circuit: the generated code gets the 503s,
    /// then a typed `circuitOpen` without a request sent.
    func testAnOpenCircuitRefusesGeneratedCalls() async throws {
        let breaker = OverloadPolicy(circuitBreaker: CircuitBreaker(consecutiveFailures: 2, openDuration: 60))
        try await withEachClient(overload: breaker) { name, client, _, faults in
            for _ in 0..<2 {
                guard case .serviceUnavailable = try await client.flaky(query: .init(key: "down", fail: 100)) else {
                    return XCTFail("\(name): expected 503")
                }
            }
            do {
                _ = try await client.flaky(query: .init(key: "down", fail: 100))
                XCTFail("\(name): the circuit let a call through")
            } catch let error as ClientError {
                guard case EndpointKitError.circuitOpen? = error.underlyingError as? EndpointKitError else {
                    return XCTFail("\(name): \(error.underlyingError)")
                }
            }
            XCTAssertEqual(faults.count("down"), 2, name)
        }
    }

    /// A generated call whose answer is late is hedged: the second request's answer comes
    /// first, and the first request is cancelled.
    func testALateGeneratedCallIsHedged() async throws {
        try await withEachClient(overload: OverloadPolicy(hedging: HedgingPolicy(delay: .fixed(0.1)))) { name, client, server, faults in
            let start = Date()
            let attempt = try await client.hold(query: .init(key: "tail", seconds: 3, slow: 1)).ok.body.json.attempt
            XCTAssertEqual(attempt, 2, name)
            XCTAssertLessThan(Date().timeIntervalSince(start), 2, name)
            XCTAssertEqual(faults.count("tail"), 2, name)
            let closed = await server.waitForDisconnect(of: "/hold")
            XCTAssertTrue(closed, "\(name): the late request's connection stayed open")
        }
    }
}
