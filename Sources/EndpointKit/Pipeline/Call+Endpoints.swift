import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@_spi(Transport) extension Call {
    /// A plain endpoint: the body in memory.
    public init<T: Endpoint>(_ endpoint: T) where T.Content == Content {
        self.init(
            endpointType: T.self,
            makeOutgoing: { (Outgoing(request: try endpoint.makeRequest()), nil) },
            sink: .memory,
            settings: endpoint,
            validate: { try endpoint.validate($0, response: $1, data: $2) },
            content: { try endpoint.content(from: $0, with: $1.body) })
    }

    /// An upload: the body sent apart from the request.
    public init<T: UploadEndpoint>(upload endpoint: T) where T.Content == Content {
        self.init(
            endpointType: T.self,
            makeOutgoing: {
                let (request, body) = try endpoint.makeRequest()
                return try Outgoing.upload(request, body)
            },
            sink: .memory,
            settings: endpoint,
            validate: { try endpoint.validate($0, response: $1, data: $2) },
            content: { try endpoint.content(from: $0, with: $1.body) })
    }

    /// A download: a 2xx body goes to a file.
    public init<T: DownloadEndpoint>(download endpoint: T) where T.Content == Content {
        let resumableURL = endpoint.resumableFileURL
        self.init(
            endpointType: T.self,
            makeOutgoing: { (Outgoing(request: try endpoint.makeRequest()), nil) },
            sink: .file(resumableURL: resumableURL),
            settings: endpoint,
            validate: { try endpoint.validate($0, response: $1, data: $2) },
            content: { response, received in
                let fileURL = try received.fileURL ?? Self.file(holding: received.body, at: resumableURL)
                do {
                    return try endpoint.content(from: response, fileURL: fileURL)
                } catch {
                    if resumableURL == nil { try? FileManager.default.removeItem(at: fileURL) }
                    throw error
                }
            })
    }

    /// A file for a body that was kept in memory (a non-2xx response the endpoint accepted).
    private static func file(holding body: Data, at url: URL?) throws -> URL {
        let url = url ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("EndpointKit-\(UUID().uuidString).download")
        try body.write(to: url)
        return url
    }
}
