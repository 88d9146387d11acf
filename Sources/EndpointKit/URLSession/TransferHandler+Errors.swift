import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TransferHandler {
    /// Foundation's own (idle) timeout reads as the package's timeout error, and libcurl's
    /// refusal of a `Content-Encoding` it does not know as `URLError.cannotDecodeContentData`.
    func transportError(_ error: any Error) -> any Error {
        if let urlError = error as? URLError, urlError.code == .timedOut {
            return EndpointKitError.timedOut(url: url, limit: timeoutInterval)
        }
        if let coding = state.withLock({ $0.response })?.value(forHTTPHeaderField: "Content-Encoding"),
            "\(error)".lowercased().contains("content encoding")
        {
            return ContentCoding.unsupported(coding, url: url, decodable: "the codings its libcurl was built with")
        }
        return EndpointKitError.transportFailed(url: url, underlying: URLError.typed(libcurl: error, url: url))
    }
}
