@_spi(Transport) import EndpointKit
import EndpointKitAsyncHTTPClient
import NIOCore
import NIOSSL
import XCTest

/// Each way a TLS handshake fails, met for real against the in-process server with
/// certificates made by the test (``TestAuthority``): the error is typed by its cause, reads
/// as that cause, and is not retried.
final class TLSTests: XCTestCase {
    private var authority: TestAuthority!
    private var other: TestAuthority!

    override func setUp() async throws {
        authority = try TestAuthority(name: "EndpointKit Test CA")
        other = try TestAuthority(name: "Somebody Else's CA")
    }

    /// Calls `books` on a server with `tls` through the AHC client with `clientTLS` (retrying
    /// what its policy retries), and returns the typed error and how many attempts were made.
    private func failure(
        server tls: @escaping @Sendable (any Channel) throws -> Void, client clientTLS: TLSConfiguration,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> (error: URLError, text: String, attempts: Int) {
        let server = try await TestServer.start(tls: tls, Routes.standard)
        defer { Task { await server.shutdown() } }
        let attempts = Guarded(0)
        let client = AsyncHTTPClientClient(
            baseURL: server.tlsBaseURL, responseObserver: { _, _, _, _ in attempts.withLock { $0 += 1 } },
            retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, maximumDelay: 0.02), tlsConfiguration: clientTLS)
        defer { Task { try? await client.shutdown() } }
        do {
            _ = try await client.request(.get("books", as: [Book].self))
            XCTFail("the handshake succeeded", file: file, line: line)
            throw CancellationError()
        } catch EndpointKitError.transportFailed(_, let underlying as URLError) {
            let text = "\(EndpointKitError.transportFailed(url: server.tlsBaseURL, underlying: underlying))"
            return (underlying, text, attempts.withLock { $0 })
        }
    }

    func testAPrivateAuthorityAloneIsTrusted() async throws {
        let server = try await TestServer.start(tls: TestAuthority.serverTLS(try authority.server()), Routes.standard)
        let client = AsyncHTTPClientClient(baseURL: server.tlsBaseURL, tlsConfiguration: authority.clientTLS())
        let books = try await client.request(.get("books", as: [Book].self))
        XCTAssertEqual(books, Routes.books)
        try await client.shutdown()
        await server.shutdown()

        let untrusted = try await failure(server: TestAuthority.serverTLS(try other.server()), client: authority.clientTLS())
        XCTAssertEqual(untrusted.error.code, .serverCertificateHasUnknownRoot, untrusted.text)
        XCTAssertTrue(untrusted.text.contains("not issued by an authority this client trusts"), untrusted.text)
        XCTAssertTrue(untrusted.text.contains("CERTIFICATE_VERIFY_FAILED"), untrusted.text)
        XCTAssertEqual(untrusted.attempts, 1, "a TLS failure was retried")

        // The system's roots do not include the private authority.
        let system = try await failure(server: TestAuthority.serverTLS(try authority.server()), client: .makeClientConfiguration())
        XCTAssertEqual(system.error.code, .serverCertificateHasUnknownRoot, system.text)
    }

    /// Pinning: the client trusts one (self-signed) server certificate alone; any other
    /// certificate, from whatever authority, is refused. (A certificate issued by an authority
    /// cannot be a trust root by itself in BoringSSL: pin the authority then.)
    func testPinningAServerCertificate() async throws {
        let server = try await TestServer.start(tls: TestCertificate.serverTLS, Routes.standard)
        let client = AsyncHTTPClientClient(baseURL: server.tlsBaseURL, tlsConfiguration: TestCertificate.clientTLS)
        let books = try await client.request(.get("books", as: [Book].self))
        XCTAssertEqual(books, Routes.books)
        try await client.shutdown()
        await server.shutdown()

        let other = try await failure(server: TestAuthority.serverTLS(try authority.server()), client: TestCertificate.clientTLS)
        XCTAssertEqual(other.error.code, .serverCertificateHasUnknownRoot, other.text)
    }

    func testAnExpiredCertificateSaysWhenItExpired() async throws {
        let expiry = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28 20:26 UTC
        let expired = try await failure(
            server: TestAuthority.serverTLS(try authority.server(from: expiry - 86400 * 30, until: expiry)), client: authority.clientTLS())
        XCTAssertEqual(expired.error.code, .serverCertificateHasBadDate, expired.text)
        XCTAssertTrue(expired.text.contains("expired on 2026-05-28 20:26 UTC"), expired.text)
        XCTAssertEqual(expired.attempts, 1)

        let early = try await failure(
            server: TestAuthority.serverTLS(try authority.server(from: Date() + 86400 * 10, until: Date() + 86400 * 20)),
            client: authority.clientTLS())
        XCTAssertEqual(early.error.code, .serverCertificateNotYetValid, early.text)
        XCTAssertTrue(early.text.contains("valid only from"), early.text)
    }

    func testACertificateForAnotherNameIsANameMismatch() async throws {
        let mismatch = try await failure(
            server: TestAuthority.serverTLS(try authority.server(names: ["billing.internal"])), client: authority.clientTLS())
        XCTAssertEqual(mismatch.error.code, .serverCertificateUntrusted, mismatch.text)
        XCTAssertTrue(mismatch.text.contains("another host name (name mismatch)"), mismatch.text)
        XCTAssertEqual(mismatch.attempts, 1)
    }

    func testMutualTLS() async throws {
        let mutual = TestAuthority.serverTLS(try authority.server(), clientsOf: authority)
        let server = try await TestServer.start(tls: mutual, Routes.standard)
        let client = AsyncHTTPClientClient(
            baseURL: server.tlsBaseURL, tlsConfiguration: authority.clientTLS(presenting: try authority.client("orders-service")))
        let books = try await client.request(.get("books", as: [Book].self))
        XCTAssertEqual(books, Routes.books)
        try await client.shutdown()
        await server.shutdown()

        let none = try await failure(server: mutual, client: authority.clientTLS())
        XCTAssertEqual(none.error.code, .clientCertificateRequired, none.text)
        XCTAssertTrue(none.text.contains("requires a client certificate"), none.text)
        XCTAssertEqual(none.attempts, 1)

        let stranger = try await failure(server: mutual, client: authority.clientTLS(presenting: try other.client("intruder")))
        XCTAssertEqual(stranger.error.code, .clientCertificateRejected, stranger.text)
        XCTAssertTrue(stranger.text.contains("refused the client certificate"), stranger.text)
        XCTAssertEqual(stranger.attempts, 1)
    }

    /// A body that runs to the close, ended by a close without TLS's closing alert, may have
    /// been cut short (RFC 9112, 9.8): AsyncHTTPClient refuses it. It is a lost connection,
    /// retried, in words that say why; before, it was `URLError.unknown` reading "NIOSSLError".
    func testABodyToACloseWithoutCloseNotifyIsALostConnection() async throws {
        let server = try await UncleanTLSServer.start(tls: TestAuthority.serverTLS(try authority.server()))
        let client = AsyncHTTPClientClient(
            baseURL: server.url, retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.01, jitter: 0),
            tlsConfiguration: authority.clientTLS())
        do {
            _ = try await client.request(.get("books", as: [Book].self))
            XCTFail("a body that may be cut short was read as whole")
        } catch EndpointKitError.transportFailed(_, let underlying as URLError) {
            XCTAssertEqual(underlying.code, .networkConnectionLost, "\(underlying)")
            XCTAssertTrue(underlying.localizedDescription.contains("no close_notify"), underlying.localizedDescription)
        }
        XCTAssertEqual(server.accepted, 2, "not sent again")
        try await client.shutdown()
        await server.stop()
    }

    func testNoCommonTLSVersion() async throws {
        var modern = authority.clientTLS()
        modern.minimumTLSVersion = .tlsv13
        let old = try await failure(server: TestAuthority.serverTLS(try authority.server(), maximumVersion: .tlsv12), client: modern)
        XCTAssertEqual(old.error.code, .secureConnectionFailed, old.text)
        XCTAssertTrue(old.text.contains("share no TLS version"), old.text)
        XCTAssertEqual(old.attempts, 1)
    }

    /// libcurl checks the chain first, and Foundation on Linux takes no private authority (see
    /// LinuxNotes): a certificate from one is untrusted, typed as such.
    func testURLSessionClientTypesAnUntrustedCertificate() async throws {
        let server = try await TestServer.start(tls: TestAuthority.serverTLS(try authority.server()), Routes.standard)
        let client = URLSessionClient(baseURL: server.tlsBaseURL, retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: 0.01))
        defer { client.invalidate() }
        do {
            _ = try await client.request(.get("books", as: [Book].self))
            XCTFail("an untrusted certificate was accepted")
        } catch let error as EndpointKitError {
            guard case .transportFailed(_, let underlying as URLError) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(underlying.code, .serverCertificateHasUnknownRoot, "\(error)")
            XCTAssertTrue("\(error)".contains("not issued by an authority this client trusts"), "\(error)")
            XCTAssertTrue("\(error)".contains("unable to get local issuer certificate"), "\(error)")
        }
        await server.shutdown()
    }

    func testAWebSocketToAMisnamedServerIsTyped() async throws {
        let server = try await TestServer.start(
            tls: TestAuthority.serverTLS(try authority.server(names: ["billing.internal"])), Routes.standard)
        let client = AsyncHTTPClientClient(baseURL: server.tlsBaseURL, tlsConfiguration: authority.clientTLS())
        do {
            _ = try await client.webSocket(SocketEndpoint())
            XCTFail("a misnamed certificate was accepted")
        } catch EndpointKitError.transportFailed(_, let underlying as URLError) {
            XCTAssertEqual(underlying.code, .serverCertificateUntrusted)
        }
        try await client.shutdown()
        await server.shutdown()
    }
}
