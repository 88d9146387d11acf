import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLError {
    /// `error` with the code of its cause, when it is one of the failures Foundation on Linux
    /// leaves as `.unknown` with libcurl's words: an answer the server cut short ("transfer
    /// closed with 981 bytes remaining to read") is `.networkConnectionLost`, as
    /// AsyncHTTPClientClient reports it and as retry policies expect; a TLS failure is typed by
    /// ``TLSFailure``. The words are kept.
    static func typed(libcurl error: any Error, url: URL?) -> any Error {
        guard let urlError = error as? URLError, urlError.code == .unknown,
            urlError.localizedDescription.lowercased().contains("transfer closed with")
        else { return TLSFailure.typed(error, url: url) }
        return URLError(.networkConnectionLost, userInfo: urlError.userInfo)
    }
}
