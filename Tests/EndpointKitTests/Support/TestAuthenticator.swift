import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Token: AuthenticationCredential, Equatable {
    let value: String
    var expires: Date = .distantFuture
    var requiresRefresh: Bool { expires < Date().addingTimeInterval(30) }
}

/// Refreshes by asking the test server's state for the next token; counts refreshes.
struct TestAuthenticator: Authenticator {
    let faults: FaultRoutes
    let refreshes = Guarded(0)
    var fails = false
    /// How long a refresh takes, in nanoseconds.
    var pause: UInt64 = 50_000_000

    func apply(_ credential: Token, to request: inout URLRequest) {
        request.setValue("Bearer \(credential.value)", forHTTPHeaderField: "Authorization")
    }

    func refresh(_ credential: Token) async throws -> Token {
        let number = refreshes.withLock { count -> Int in
            count += 1
            return count
        }
        if pause > 0 { try await Task.sleep(nanoseconds: pause) }
        if fails { throw URLError(.userAuthenticationRequired) }
        let token = "token-refreshed-\(number)"
        faults.validToken.withLock { $0 = token }
        return Token(value: token)
    }
}
