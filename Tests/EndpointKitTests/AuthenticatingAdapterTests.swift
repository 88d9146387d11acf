import Foundation
import XCTest

@_spi(Locking) @testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class AuthenticatingAdapterTests: ServerTestCase {
    let faults = FaultRoutes()
    override var routes: TestServer.Handler { faults.handler }

    private func makeClient(_ authenticator: TestAuthenticator, token: Token) -> (URLSessionClient, AuthenticatingAdapter<TestAuthenticator>) {
        let auth = AuthenticatingAdapter(authenticator: authenticator, credential: token)
        let chain = RequestAdapterChain([BaseRequestAdapter(baseURL: server.baseURL), auth])
        return (URLSessionClient(requestAdapter: chain, responseObserver: observed.observer), auth)
    }

    func testAHundredConcurrentRejectionsCauseOneRefresh() async throws {
        let authenticator = TestAuthenticator(faults: faults)
        let (client, auth) = makeClient(authenticator, token: Token(value: "stale"))
        defer { client.invalidate() }
        let results = try await withThrowingTaskGroup(of: Attempt.self) { group in
            for _ in 0..<100 { group.addTask { try await client.request(AttemptEndpoint(path: "auth")) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(results.count, 100)
        XCTAssertEqual(authenticator.refreshes.withLock { $0 }, 1)
        let current = await auth.credential
        XCTAssertEqual(current.value, "token-refreshed-1")
        XCTAssertEqual(faults.count("/auth"), 200, "each call: one rejection, one success")
    }

    /// A call that read the rejected credential just before another call's refresh installed
    /// the new one must not start a second refresh: many waves make that window likely.
    func testRepeatedWavesOfRejectionsEachCauseOneRefresh() async throws {
        for wave in 0..<30 {
            faults.validToken.withLock { $0 = "token-1" }
            let authenticator = TestAuthenticator(faults: faults, pause: 0)
            let (client, _) = makeClient(authenticator, token: Token(value: "stale"))
            defer { client.invalidate() }
            let failed = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<50 { group.addTask { (try? await client.request(AttemptEndpoint(path: "auth"))) == nil } }
                return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            XCTAssertEqual(failed, 0, "wave \(wave)")
            XCTAssertEqual(authenticator.refreshes.withLock { $0 }, 1, "wave \(wave)")
        }
    }

    func testAFailedRefreshFailsEveryWaitingCall() async throws {
        var authenticator = TestAuthenticator(faults: faults)
        authenticator.fails = true
        let (client, _) = makeClient(authenticator, token: Token(value: "stale"))
        defer { client.invalidate() }
        let errors = await withTaskGroup(of: (any Error)?.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do {
                        _ = try await client.request(AttemptEndpoint(path: "auth"))
                        return nil
                    } catch { return error }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(errors.count, 20)
        for error in errors {
            guard case EndpointKitError.requestAdapterFailed(let name, let underlying)? = error else {
                return XCTFail("unexpected \(String(describing: error))")
            }
            XCTAssertTrue(name.hasPrefix("AuthenticatingAdapter"), name)
            XCTAssertEqual((underlying as? URLError)?.code, .userAuthenticationRequired)
        }
        XCTAssertLessThanOrEqual(authenticator.refreshes.withLock { $0 }, 2, "one refresh per wave of waiting calls")
    }

    func testACredentialNearExpiryIsRefreshedBeforeSending() async throws {
        let authenticator = TestAuthenticator(faults: faults)
        let (client, _) = makeClient(authenticator, token: Token(value: "token-1", expires: Date().addingTimeInterval(5)))
        defer { client.invalidate() }
        _ = try await client.request(AttemptEndpoint(path: "auth"))
        XCTAssertEqual(authenticator.refreshes.withLock { $0 }, 1)
        XCTAssertEqual(faults.count("/auth"), 1, "no rejected attempt")
        XCTAssertEqual(server.requests.last?.header("Authorization"), "Bearer token-refreshed-1")
    }

    func testARejectionThatPersistsAfterRefreshEnds() async throws {
        let authenticator = TestAuthenticator(faults: faults)
        let (client, _) = makeClient(authenticator, token: Token(value: "stale"))
        defer { client.invalidate() }
        let result = await complete(AttemptEndpoint(path: "status?code=401"), on: client)
        XCTAssertEqual((result.error as? EndpointKitError)?.statusCode, 401)
        XCTAssertLessThanOrEqual(faults.count("/status"), 3)
    }
}
