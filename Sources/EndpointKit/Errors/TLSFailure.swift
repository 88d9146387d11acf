import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a TLS handshake failed, in the `URLError` code Foundation has for it and in words, read
/// from what the TLS library said (OpenSSL through libcurl for `URLSessionClient` on Linux,
/// BoringSSL through NIOSSL for the AsyncHTTPClient client). Both clients report a failed
/// handshake as `EndpointKitError.transportFailed` around the `URLError` this makes, so a caller
/// (and a retry policy: none of these codes is retried) can tell the causes apart.
///
/// SPI for EndpointKit's client packages.
@_spi(Transport) public struct TLSFailure: Sendable, Equatable {
    /// Foundation's code for the cause.
    public var code: URLError.Code
    /// The cause in words, e.g. "the server's certificate has expired".
    public var reason: String

    /// A failure with a known cause.
    public init(code: URLError.Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The cause `message` names, or `nil` if it does not name a TLS failure. An alert the
    /// server sent is told apart from the client's own verdict on the server's certificate.
    public init?(message: String) {
        let text = message.lowercased().replacingOccurrences(of: "_", with: " ")
        guard let (code, reason) = Self.rules.first(where: { rule in rule.patterns.contains(where: text.contains) }).map({ ($0.code, $0.reason) })
        else { return nil }
        // A connection lost while TLS was up is a network failure, not a verdict on trust.
        if code == .secureConnectionFailed, Self.lost.contains(where: text.contains) { return nil }
        self.init(code: code, reason: reason)
    }

    /// The `URLError` for this failure on `url`: its description names the cause, then what
    /// the TLS library said (`detail`).
    public func error(url: URL?, detail: String, underlying: any Error) -> URLError {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: "TLS handshake failed: \(reason) (\(detail))", NSUnderlyingErrorKey: underlying as NSError,
        ]
        if let url { info[NSURLErrorFailingURLErrorKey] = url }
        return URLError(code, userInfo: info)
    }

    /// `error` as the `URLError` of its TLS cause, when it is one of Foundation's `URLError`s
    /// that names no cause (libcurl's TLS failures arrive as `.unknown` with OpenSSL's words);
    /// otherwise `error` itself.
    public static func typed(_ error: any Error, url: URL?) -> any Error {
        guard let urlError = error as? URLError, urlError.code == .unknown || urlError.code == .secureConnectionFailed,
            let failure = TLSFailure(message: urlError.localizedDescription)
        else { return error }
        return failure.error(url: url, detail: urlError.localizedDescription, underlying: error)
    }

    private struct Rule {
        let patterns: [String]
        let code: URLError.Code
        let reason: String
    }

    /// First match wins: alerts from the server, then the client's checks of the server's
    /// certificate, then anything else that failed the handshake.
    private static let rules: [Rule] = [
        Rule(
            patterns: ["alert certificate required", "peer did not return a certificate"], code: .clientCertificateRequired,
            reason: "the server requires a client certificate, and none was sent"),
        Rule(
            patterns: [
                "alert unknown ca", "alert bad certificate", "alert certificate unknown", "alert certificate expired",
                "alert certificate revoked", "alert unsupported certificate", "alert access denied",
            ],
            code: .clientCertificateRejected, reason: "the server refused the client certificate"),
        // What the client reads when the answer is not TLS at all: `https://` to a plain HTTP port.
        Rule(
            patterns: ["wrong version number", "packet length too long"], code: .secureConnectionFailed,
            reason: "the server did not answer in TLS (is the port plain HTTP?)"),
        Rule(
            patterns: [
                "alert protocol version", "unsupported protocol", "no protocols available",
                "alert handshake failure", "no shared cipher", "no cipher", "alert insufficient security",
            ],
            code: .secureConnectionFailed, reason: "the client and server share no TLS version or cipher suite"),
        Rule(
            patterns: [
                "no alternative certificate subject name", "failedtovalidatehostname", "does not match target host",
                "hostname mismatch", "subject name does not match",
            ],
            code: .serverCertificateUntrusted, reason: "the server's certificate is for another host name (name mismatch)"),
        Rule(patterns: ["certificate has expired", "certificate expired"], code: .serverCertificateHasBadDate, reason: "the server's certificate has expired"),
        Rule(patterns: ["certificate is not yet valid"], code: .serverCertificateNotYetValid, reason: "the server's certificate is not valid yet"),
        Rule(
            patterns: [
                "unable to get local issuer certificate", "self-signed certificate", "self signed certificate",
                "unable to get issuer certificate", "unable to verify the first certificate", "certificate verify failed",
            ],
            code: .serverCertificateHasUnknownRoot, reason: "the server's certificate is not issued by an authority this client trusts"),
        Rule(patterns: ["ssl", "tls", "handshake", "certificate"], code: .secureConnectionFailed, reason: "the handshake failed"),
    ]

    /// Words of a connection that dropped, whatever layer saw it.
    private static let lost = [
        "unexpected eof", "eof during handshake", "connection reset", "broken pipe", "syscall", "connection closed", "uncleanshutdown",
    ]
}
