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
    /// at all ("Empty reply from server", `.badServerResponse`). A TLS failure is typed by
    /// ``TLSFailure``. The words are kept. A response head Foundation could not read (libcurl's
    /// "Failed writing header", `.unknown`) is `.cannotParseResponse`, saying what it balks at;
    /// so is one libcurl refused as not HTTP, as AsyncHTTPClientClient types it: a bad
    /// `Content-Length`, a NUL in a field, a line without a colon (`.unknown`), and a status
    /// code or version it does not know, or no head at all (`.unsupportedURL`, which names a
    /// URL scheme, not an answer). A header field over libcurl's 100 KiB limit, which it
    /// reports as "Out of memory", is `.cannotParseResponse` saying so (AsyncHTTPClient refuses
    /// a head over 80 KiB with that code).
    ///
    /// A URL whose host is an IPv6 address (`http://[::1]:8080/`) is `.badURL` on Linux before
    /// anything is sent, because Foundation compares libcurl's host (bracketed) with
    /// `URL.host` (not) and refuses when they differ (swift-corelibs-foundation#5496; not
    /// fixed in Swift 6.3.1): the error then says so and what to use instead.
    static func typed(libcurl error: any Error, url: URL?) -> any Error {
        #if canImport(FoundationNetworking)
            if let urlError = error as? URLError, urlError.code == .badURL, let host = url?.host, host.contains(":") {
                var userInfo = urlError.userInfo
                userInfo[NSLocalizedDescriptionKey] =
                    "Foundation on Linux cannot send to an IPv6 address in the URL ([\(host)]): use a host name "
                    + "that resolves to it, or AsyncHTTPClientClient (swift-corelibs-foundation#5496)"
                return URLError(.badURL, userInfo: userInfo)
            }
        #endif
        if let urlError = error as? URLError, urlError.code == .unknown,
            urlError.localizedDescription.lowercased().contains("failed writing header")
        {
            var userInfo = urlError.userInfo
            userInfo[NSLocalizedDescriptionKey] =
                "Foundation on Linux could not read the response's head (a header that is not UTF-8, such as a Latin-1 "
                + "file name, or a status line without a space after the code, both of which AsyncHTTPClientClient reads; "
                + "or lines ended by a bare LF) and refused the whole response (libcurl: Failed writing header)"
            return URLError(.cannotParseResponse, userInfo: userInfo)
        }
        if let urlError = error as? URLError, [.unknown, .unsupportedURL].contains(urlError.code),
            notHTTPWords.contains(where: urlError.localizedDescription.lowercased().contains)
        {
            var userInfo = urlError.userInfo
            userInfo[NSLocalizedDescriptionKey] = "The answer is not valid HTTP (libcurl: \(urlError.localizedDescription))"
            return URLError(.cannotParseResponse, userInfo: userInfo)
        }
        if let urlError = error as? URLError, urlError.code == .unknown, urlError.localizedDescription == "Out of memory" {
            var userInfo = urlError.userInfo
            userInfo[NSLocalizedDescriptionKey] =
                "The answer's head is too large to read (libcurl says \"Out of memory\" for a header field over 100 KiB)"
            return URLError(.cannotParseResponse, userInfo: userInfo)
        }
        guard let urlError = error as? URLError, let words = connectionLostWords[urlError.code],
            words.contains(where: urlError.localizedDescription.lowercased().contains)
        else { return TLSFailure.typed(error, url: url) }
        return URLError(.networkConnectionLost, userInfo: urlError.userInfo)
    }

    /// libcurl's words for an answer it refused as not HTTP.
    private static let notHTTPWords = [
        "invalid content-length", "nul byte in header", "header without colon", "unsupported response code",
        "unsupported http version", "received http/0.9",
    ]

    /// libcurl's words for a broken connection, by the code Foundation on Linux gives them.
    private static let connectionLostWords: [URLError.Code: [String]] = [
        .unknown: ["transfer closed with", "send failure: broken pipe"],
        .badServerResponse: ["empty reply from server"],
    ]
}
