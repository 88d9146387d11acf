import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call of a download endpoint: a 2xx body goes to a file. SPI for EndpointKit's client
/// packages.
@_spi(Transport) public struct DownloadCall<T: DownloadEndpoint>: Call {
    /// The endpoint.
    public let endpoint: T
    private let resumableURL: URL?

    /// A call of `endpoint`.
    public init(_ endpoint: T) {
        self.endpoint = endpoint
        resumableURL = endpoint.resumableFileURL
    }

    /// The endpoint's request.
    public func makeOutgoing() throws -> (Outgoing, MultipartFormData?) {
        (Outgoing(request: try endpoint.makeRequest()), nil)
    }

    /// The endpoint's file, or a temporary one; a range request resumes the former.
    public func downloadFile(for request: inout URLRequest) -> DownloadFile? {
        DownloadFile(resumableURL: resumableURL, request: &request)
    }

    /// The endpoint's validation; none for the `416` that says the resumable file is already
    /// whole (see `DownloadFile.wholeEntitySize(at:refused:)`). Any other `416` to a resumed
    /// download discards the kept bytes, so the next download starts over. A temporary file the
    /// endpoint refuses is deleted: no one else will.
    public func validate(_ request: URLRequest, _ received: ReceivedResponse) throws {
        let response = received.head.response
        if let resumableURL, response.statusCode == 416 {
            if DownloadFile.wholeEntitySize(at: resumableURL, refused: response) != nil { return }
            DownloadFile.discard(resumableURL)
        }
        try deletingTemporary(received.fileURL) {
            try endpoint.validate(request, response: response, data: received.fileURL == nil ? received.body : nil)
        }
    }

    /// The endpoint's content of the file the body went to (written there now if it was kept
    /// in memory: a non-2xx answer the endpoint accepted). The resumable file that was already
    /// whole is handed over as it is, with a `200` of its length.
    public func content(_ received: ReceivedResponse) throws -> T.Content {
        let response = received.response
        if let resumableURL, received.fileURL == nil, let total = DownloadFile.wholeEntitySize(at: resumableURL, refused: response),
            let whole = HTTPURLResponse(
                url: response.url ?? resumableURL, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Length": "\(total)"])
        {
            try? FileManager.default.removeItem(at: DownloadFile.record(of: resumableURL))
            return try endpoint.content(from: whole, fileURL: resumableURL)
        }
        let fileURL = try received.fileURL ?? Self.file(holding: received.body, at: resumableURL)
        return try deletingTemporary(fileURL) { try endpoint.content(from: response, fileURL: fileURL) }
    }

    /// Runs `step` (the endpoint's validation or content) on the answer in `fileURL`; when it
    /// throws, the file is deleted unless it is the endpoint's resumable one: no one else will.
    private func deletingTemporary<Result>(_ fileURL: URL?, _ step: () throws -> Result) throws -> Result {
        do {
            return try step()
        } catch {
            if resumableURL == nil, let fileURL { try? FileManager.default.removeItem(at: fileURL) }
            throw error
        }
    }

    /// A file for a body that was kept in memory.
    private static func file(holding body: Data, at url: URL?) throws -> URL {
        let url = url ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("EndpointKit-\(UUID().uuidString).download")
        try body.write(to: url)
        return url
    }
}
