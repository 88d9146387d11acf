import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Connections that a server drops before it answers.
extension ClientScenarios {
    var handshakeScenarios: [(String, @Sendable (TestServer, FaultRoutes) async throws -> Void)] {
        [("a TLS handshake cut short", tlsHandshakeCutShort)]
    }

    /// An `https` server that drops each connection before its TLS handshake is done (a TLS
    /// terminator under load, a backend restarting): reset as it is accepted, reset after the
    /// client's hello, or closed after it. Nothing of the request was sent, so each is a lost
    /// connection that a retry policy knows, and a GET is sent again. Before, `URLSessionClient`
    /// reported all three as `URLError.unknown` (libcurl's "SSL_ERROR_SYSCALL" and "Recv
    /// failure"), and `AsyncHTTPClientClient` the close as a failed handshake
    /// (`secureConnectionFailed`, "EOF during handshake"): neither was retried.
    func tlsHandshakeCutShort(_: TestServer, _: FaultRoutes) async throws {
        for drop in [ResettingListener.Drop.resetOnAccept, .resetAfterFirstBytes, .closeAfterFirstBytes] {
            let listener = try await ResettingListener.start(drop)
            var parts = URLComponents(url: listener.url, resolvingAgainstBaseURL: false)
            parts?.scheme = "https"
            let base = parts?.url ?? listener.url
            let options = Options(retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: 0.001, jitter: 0), timeout: 10, overload: .none)
            try await using(makeClient(options.configuration(baseURL: base)), close: close) { client in
                do {
                    _ = try await client.request(GetBook())
                    XCTFail("\(name) \(drop): answered")
                } catch EndpointKitError.transportFailed(_, let underlying as URLError) {
                    // A reset as the connection is accepted may come before the client sees it
                    // made (as in "reset as it is accepted"): a connection that could not be made.
                    let codes: [URLError.Code] = drop == .resetOnAccept ? [.networkConnectionLost, .cannotConnectToHost] : [.networkConnectionLost]
                    XCTAssertTrue(codes.contains(underlying.code), "\(name) \(drop): \(underlying)")
                    // Not "TLS handshake failed", a verdict on the server; no libcurl space before ")".
                    for wrong in [" )", "handshake failed"] {
                        XCTAssertFalse(underlying.localizedDescription.contains(wrong), "\(name) \(drop): \(underlying)")
                    }
                }
            }
            await listener.stop()
            XCTAssertGreaterThanOrEqual(listener.accepted, 3, "\(name) \(drop): not sent again")
        }
    }
}
