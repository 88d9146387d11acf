import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLError {
    /// `error` with the code of its cause, when it is one of the failures Foundation on Linux
    /// types loosely, by libcurl's words: a connection that broke before the answer was whole
    /// is `.networkConnectionLost`, as AsyncHTTPClientClient reports it, as Foundation on
    /// Apple platforms does and as retry policies expect. That is an answer the server cut
    /// short ("transfer closed with 981 bytes remaining to read") and a request it broke off
    /// ("Send failure: Broken pipe"), both `.unknown`, and a connection closed with no answer
    /// at all ("Empty reply from server", `.badServerResponse`). A connection that could not be
    /// made for any cause but a refusal ("Failed to connect to … Couldn't connect to server":
    /// no route to the host, or a reset as it was accepted, `.unknown`) is
    /// `.cannotConnectToHost`, as a refused one is. A body that is not in the coding its
    /// `Content-Encoding` names ("Error while processing content unencoding: incorrect header
    /// check", `.unknown`) is `.cannotDecodeContentData`, as on Apple platforms and as
    /// AsyncHTTPClientClient types it. A TLS failure is typed by ``TLSFailure``. The words are
    /// kept. A response head Foundation could not read (libcurl's "Failed writing header",
    /// `.unknown`) is `.cannotParseResponse`, saying what it balks at; so is one libcurl
    /// refused as not HTTP, as AsyncHTTPClientClient types it: a bad `Content-Length`, a NUL
    /// in a field, a line without a colon, a chunk size that is not one ("Illegal or missing
    /// hexadecimal sequence in chunked-encoding", `.unknown`), a status code or version it does
    /// not know, or no head at all (`.unsupportedURL`, which names a URL scheme, not an
    /// answer). A header field over libcurl's 100 KiB limit, which it reports as "Out of
    /// memory", is `.cannotParseResponse` saying so (AsyncHTTPClient refuses a head over 80 KiB
    /// with that code).
    ///
    /// A URL whose host is an IPv6 address (`http://[::1]:8080/`) is `.badURL` on Linux before
    /// anything is sent, because Foundation compares libcurl's host (bracketed) with
    /// `URL.host` (not) and refuses when they differ (swift-corelibs-foundation#5496; not
    /// fixed in Swift 6.3.1): the error then says so and what to use instead. One with an
    /// empty host (`http://user@/`) is `.badURL` without words: it then says the host is missing.
    static func typed(libcurl error: any Error, url: URL?) -> any Error {
        #if canImport(FoundationNetworking)
            if let urlError = error as? URLError, urlError.code == .badURL, let host = url?.host, host.contains(":") {
                return urlError.retyped(
                    .badURL,
                    saying: "Foundation on Linux cannot send to an IPv6 address in the URL ([\(host)]): use a host name "
                        + "that resolves to it, or AsyncHTTPClientClient (swift-corelibs-foundation#5496)")
            }
            // An empty host (`http://user@/`, `http://:80/`) passes Foundation's own check, and
            // libcurl's refusal comes without words.
            if let urlError = error as? URLError, urlError.code == .badURL, url?.host?.isEmpty ?? true {
                return urlError.retyped(.badURL, saying: "HTTP URL must have a host")
            }
        #endif
        if let urlError = error as? URLError, let words = unparsedAnswer(urlError) {
            return urlError.retyped(.cannotParseResponse, saying: words)
        }
        guard let urlError = error as? URLError,
            let cause = looselyTyped.first(where: { given, words, _ in
                given == urlError.code && words.contains(where: urlError.localizedDescription.lowercased().contains)
            })?.cause
        else { return TLSFailure.typed(error, url: url) }
        let words = urlError.localizedDescription.trimmingCharacters(in: .whitespaces)
        if words.lowercased().contains("ssl_connect") {
            return urlError.retyped(cause, saying: "The server closed the connection during the TLS handshake (libcurl: \(words))")
        }
        return URLError(cause, userInfo: urlError.userInfo)
    }

    /// What to say of an answer libcurl or Foundation could not parse, if `error` reports one.
    private static func unparsedAnswer(_ error: URLError) -> String? {
        let words = error.localizedDescription
        if error.code == .unknown, words.lowercased().contains("failed writing header") {
            return "Foundation on Linux could not read the response's head (a header that is not UTF-8, such as a Latin-1 "
                + "file name, a header with no space after its colon, or a status line without a space after the code, all "
                + "of which AsyncHTTPClientClient reads; or lines ended by a bare LF) and refused the whole response "
                + "(libcurl: Failed writing header)"
        }
        if [.unknown, .unsupportedURL].contains(error.code), notHTTPWords.contains(where: words.lowercased().contains) {
            return "The answer is not valid HTTP (libcurl: \(words))"
        }
        if error.code == .unknown, words == "Out of memory" {
            return "The answer's head is too large to read (libcurl says \"Out of memory\" for a header field over 100 KiB)"
        }
        return nil
    }

    /// This error with `code` and `words` as its description, the rest of its user info kept.
    private func retyped(_ code: URLError.Code, saying words: String) -> URLError {
        var userInfo = self.userInfo
        userInfo[NSLocalizedDescriptionKey] = words
        return URLError(code, userInfo: userInfo)
    }

    /// libcurl's words for an answer it refused as not HTTP.
    private static let notHTTPWords = [
        "invalid content-length", "nul byte in header", "header without colon", "unsupported response code",
        "unsupported http version", "received http/0.9",
        // A chunk size that is not hexadecimal, or past 64 bits.
        "in chunked-encoding",
    ]

    /// libcurl's words for a connection that broke or could not be made, with the code
    /// Foundation on Linux gives them and the code of their cause.
    private static let looselyTyped: [(given: URLError.Code, words: [String], cause: URLError.Code)] = [
        // Over TLS, libcurl's words for a connection reset or closed during the handshake
        // come as `.unknown` too.
        (.unknown, ["transfer closed with", "broken pipe", "connection reset by peer", "ssl_error_syscall"], .networkConnectionLost),
        (.badServerResponse, ["empty reply from server"], .networkConnectionLost),
        // A connection reset as it is made can leave libcurl without its peer's address.
        (.unknown, ["failed to connect to", "couldn't connect to server", "transport endpoint is not connected"], .cannotConnectToHost),
        // A body that is not in the coding its `Content-Encoding` names.
        (.unknown, ["error while processing content unencoding"], .cannotDecodeContentData),
    ]
}
