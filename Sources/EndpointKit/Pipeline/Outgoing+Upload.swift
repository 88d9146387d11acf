import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Outgoing {
    /// What an ``UploadEndpoint`` sends: `request` with `body` apart from it. A multipart form
    /// is returned apart, for the pipeline to write into a temporary file first.
    static func upload(_ request: URLRequest, _ body: UploadEndpointBody) throws -> (Outgoing, MultipartFormData?) {
        switch body {
        case .data(let data):
            return (Outgoing(request: request, body: .data(data)), nil)
        case .file(let url):
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
            }
            return (Outgoing(request: request, body: .file(url)), nil)
        case .stream(let makeStream):
            return (Outgoing(request: request, body: .stream(makeStream)), nil)
        case .produced(let produced):
            return (Outgoing(request: request, body: .produced(produced)), nil)
        case .multipart(let form):
            return (Outgoing(request: request), form)
        }
    }
}
