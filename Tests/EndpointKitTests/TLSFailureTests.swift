@_spi(Transport) import EndpointKit
import XCTest

/// What OpenSSL (through libcurl) and BoringSSL (through NIOSSL) say, read as a cause. The
/// handshakes themselves are met for real in EndpointKitAsyncHTTPClient's `TLSTests`; these
/// are the messages Foundation's libcurl gives for causes a test cannot make it meet on Linux
/// (it trusts only the system's authorities, so every test certificate is untrusted first).
final class TLSFailureTests: XCTestCase {
    func testMessagesAreReadAsTheirCause() {
        let cases: [(String, URLError.Code?)] = [
            ("SSL certificate problem: unable to get local issuer certificate", .serverCertificateHasUnknownRoot),
            ("SSL certificate problem: self-signed certificate", .serverCertificateHasUnknownRoot),
            ("SSL certificate problem: self signed certificate in certificate chain", .serverCertificateHasUnknownRoot),
            ("SSL certificate problem: certificate has expired", .serverCertificateHasBadDate),
            ("SSL certificate problem: certificate is not yet valid", .serverCertificateNotYetValid),
            ("SSL: no alternative certificate subject name matches target host name 'billing.internal'", .serverCertificateUntrusted),
            ("OpenSSL/3.0.19: error:0A00045C:SSL routines::tlsv13 alert certificate required", .clientCertificateRequired),
            ("OpenSSL/3.0.19: error:0A000418:SSL routines::tlsv1 alert unknown ca", .clientCertificateRejected),
            ("OpenSSL/3.0.19: error:0A000412:SSL routines::sslv3 alert bad certificate", .clientCertificateRejected),
            ("OpenSSL/3.0.19: error:0A00042E:SSL routines::tlsv1 alert protocol version", .secureConnectionFailed),
            ("OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number", .secureConnectionFailed),
            ("error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED", .serverCertificateHasUnknownRoot),
            ("error:1000045c:SSL routines:OPENSSL_internal:TLSV1_ALERT_CERTIFICATE_REQUIRED", .clientCertificateRequired),
            ("error:10000418:SSL routines:OPENSSL_internal:TLSV1_ALERT_UNKNOWN_CA", .clientCertificateRejected),
            ("error:1000042d:SSL routines:OPENSSL_internal:SSLV3_ALERT_CERTIFICATE_EXPIRED", .clientCertificateRejected),
            ("NIOSSLExtraError.failedToValidateHostname: Couldn't find localhost in certificate from peer", .serverCertificateUntrusted),
            // A connection that dropped is not a verdict on trust (and stays retryable).
            ("OpenSSL SSL_read: error:0A000126:SSL routines::unexpected eof while reading, errno 0", nil),
            ("OpenSSL SSL_write: Broken pipe, errno 32", nil),
            ("Recv failure: Connection reset by peer", nil),
            ("handshakeFailed(NIOSSL.BoringSSLError.sslError([Error:  EOF during handshake]))", nil),
            ("Couldn't connect to server", nil),
        ]
        for (message, code) in cases {
            XCTAssertEqual(TLSFailure(message: message)?.code, code, message)
        }
    }

    func testFoundationsUnknownErrorBecomesTheCausesCode() {
        let url = URL(string: "https://billing.internal/x")
        let libcurl = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "SSL certificate problem: certificate has expired"])
        let typed = TLSFailure.typed(libcurl, url: url) as? URLError
        XCTAssertEqual(typed?.code, .serverCertificateHasBadDate)
        let text = "\(EndpointKitError.transportFailed(url: url, underlying: typed ?? libcurl))"
        XCTAssertTrue(text.contains("TLS handshake failed: the server's certificate has expired (SSL certificate problem"), text)
        // Only codes that name no cause are read again; others stay as they are.
        let timedOut = URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: "SSL connection timeout"])
        XCTAssertEqual((TLSFailure.typed(timedOut, url: url) as? URLError)?.code, .timedOut)
        XCTAssertFalse(RetryPolicy.default.errorCodes.contains(.serverCertificateHasBadDate))
    }
}
