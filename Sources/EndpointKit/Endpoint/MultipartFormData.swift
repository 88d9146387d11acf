import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields, in-memory parts and file parts.
///
/// File parts are read from disk in 64 KiB chunks when the body is written, so a large file
/// is never held in memory. Send it with ``UploadEndpointBody/multipart(_:)``.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Dune", name: "title")
/// try form.append(fileAt: coverURL, name: "cover", mimeType: "image/jpeg")
/// return (try URLRequest(.post, "books/1/cover"), .multipart(form))
/// ```
public struct MultipartFormData: Sendable {
    private enum Content: Sendable {
        case data(Data)
        case file(URL)
    }

    private struct Part: Sendable {
        let head: Data
        let content: Content
    }

    /// The boundary between parts; random unless given.
    public let boundary: String
    private var parts: [Part] = []

    /// Creates an empty form.
    public init(boundary: String = "EndpointKit-\(UUID().uuidString)") {
        self.boundary = boundary
    }

    /// The `Content-Type` header value, with the boundary.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Appends a text field.
    public mutating func append(_ value: String, name: String) {
        append(Data(value.utf8), name: name)
    }

    /// Appends a part from memory; give `fileName` to send it as a file.
    public mutating func append(_ data: Data, name: String, fileName: String? = nil, mimeType: String? = nil) {
        parts.append(Part(head: head(name: name, fileName: fileName, mimeType: mimeType), content: .data(data)))
    }

    /// Appends a file part, read from disk only when the body is written.
    ///
    /// - Parameters:
    ///   - url: The file to send.
    ///   - name: The form field's name.
    ///   - fileName: The name the server sees; the file's own name by default.
    ///   - mimeType: Guessed from the file's extension by default.
    /// - Throws: An error if `url` is not a readable regular file.
    public mutating func append(fileAt url: URL, name: String, fileName: String? = nil, mimeType: String? = nil) throws {
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        let type = mimeType ?? Self.mimeType(forExtension: url.pathExtension)
        parts.append(Part(head: head(name: name, fileName: fileName ?? url.lastPathComponent, mimeType: type), content: .file(url)))
    }

    /// The whole body in memory (file parts are read in).
    public func encoded() throws -> Data {
        var body = Data()
        try write { body.append($0) }
        return body
    }

    /// Writes the body to `url`, copying file parts in chunks.
    public func write(to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try write { try handle.write(contentsOf: $0) }
    }

    private func write(_ sink: (Data) throws -> Void) throws {
        for part in parts {
            try sink(part.head)
            switch part.content {
            case .data(let data):
                try sink(data)
            case .file(let url):
                let handle = try FileHandle(forReadingFrom: url)
                defer { try? handle.close() }
                while let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
                    try sink(chunk)
                }
            }
            try sink(Data("\r\n".utf8))
        }
        try sink(Data("--\(boundary)--\r\n".utf8))
    }

    private func head(name: String, fileName: String?, mimeType: String?) -> Data {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escape(name))\""
        if let fileName { head += "; filename=\"\(Self.escape(fileName))\"" }
        head += "\r\n"
        if let mimeType { head += "Content-Type: \(mimeType)\r\n" }
        return Data((head + "\r\n").utf8)
    }

    /// Escapes a quoted parameter as browsers do (WHATWG HTML, multipart/form-data encoding).
    private static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    private static let mimeTypes = [
        "json": "application/json", "txt": "text/plain", "csv": "text/csv", "html": "text/html",
        "xml": "application/xml", "pdf": "application/pdf", "zip": "application/zip",
        "gz": "application/gzip", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml", "mp4": "video/mp4",
        "mp3": "audio/mpeg",
    ]

    static func mimeType(forExtension fileExtension: String) -> String {
        mimeTypes[fileExtension.lowercased()] ?? "application/octet-stream"
    }
}
