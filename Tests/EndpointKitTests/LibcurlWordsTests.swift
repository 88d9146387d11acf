@testable import EndpointKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// libcurl's words for a connection that broke or could not be made, which Foundation on Linux
/// reports as `URLError.unknown`, read as the code of their cause (which retry policies know).
/// The scenarios meet them for real, but which words come depends on timing (a reset as a
/// connection is accepted reads as any of three): here each is met every time.
final class LibcurlWordsTests: XCTestCase {
    func testWordsOfALostOrUnmadeConnectionAreReadAsTheirCause() {
        let cases: [(String, URLError.Code)] = [
            ("transfer closed with 90 bytes remaining to read", .networkConnectionLost),
            ("Send failure: Broken pipe", .networkConnectionLost),
            ("Send failure: Connection reset by peer", .networkConnectionLost),
            ("Recv failure: Connection reset by peer", .networkConnectionLost),
            ("OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to 127.0.0.1:8104 ", .networkConnectionLost),
            ("Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server", .cannotConnectToHost),
            ("getpeername() failed with errno 107: Transport endpoint is not connected", .cannotConnectToHost),
        ]
        let url = URL(string: "https://127.0.0.1:8104/x")
        for (words, code) in cases {
            let libcurl = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: words])
            let typed = URLError.typed(libcurl: libcurl, url: url) as? URLError
            XCTAssertEqual(typed?.code, code, words)
        }
    }

    func testAHandshakeCutShortSaysSo() {
        let words = "OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to 127.0.0.1:8104 "
        let libcurl = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: words])
        let typed = URLError.typed(libcurl: libcurl, url: URL(string: "https://127.0.0.1:8104/x")) as? URLError
        XCTAssertEqual(
            typed?.localizedDescription,
            "The server closed the connection during the TLS handshake (libcurl: OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to 127.0.0.1:8104)")
    }
}
