import EndpointKit

/// `PUT /books/{id}/cover`: the image file is the body, streamed from disk.
public struct UploadCoverEndpoint: UploadEndpoint {
    public typealias Content = Void
    let id: Int
    let file: URL

    /// Uploads `file` as the cover of the book with `id`.
    public init(id: Int, file: URL) {
        self.id = id
        self.file = file
    }

    /// Builds the request and names the file as its body.
    public func makeRequest() throws -> (URLRequest, UploadEndpointBody) {
        var request = try URLRequest(.put, "books/\(id)/cover")
        request.setField(Self.contentType(of: file), named: "Content-Type")
        return (request, .file(file))
    }

    /// Turns the API's `{"error": …}` bodies into ``APIError``.
    public func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        try APIError.validate(request, response: response, data: data)
    }

    static func contentType(of file: URL) -> String {
        switch file.pathExtension.lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        default: "application/octet-stream"
        }
    }
}

/// `GET /books/{id}/cover`: the image is written to `destination` (replacing what is there).
public struct DownloadCoverEndpoint: DownloadEndpoint {
    public typealias Content = URL
    let id: Int
    let destination: URL

    /// Downloads the cover of the book with `id` to `destination`.
    public init(id: Int, destination: URL) {
        self.id = id
        self.destination = destination
    }

    /// Builds the request.
    public func makeRequest() throws -> URLRequest { try URLRequest(.get, "books/\(id)/cover") }

    /// Moves the downloaded file to `destination` and returns it.
    public func content(from response: URLResponse?, fileURL: URL) throws -> URL {
        let manager = FileManager.default
        if manager.fileExists(atPath: destination.path) { try manager.removeItem(at: destination) }
        try manager.moveItem(at: fileURL, to: destination)
        return destination
    }

    /// Turns the API's `{"error": …}` bodies into ``APIError``.
    public func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        try APIError.validate(request, response: response, data: data)
    }
}
