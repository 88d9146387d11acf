import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where one download's bytes go, and how it resumes.
///
/// A resumable download keeps a small record beside the file (`<file>.resume`) holding the
/// entity's validator (its `ETag` unless weak, or else `Last-Modified`). The next download asks
/// only for the missing bytes with `Range` and `If-Range`: a server that still has the same
/// entity answers 206 and the bytes are appended; one that ignores the range (or has a new
/// entity) answers 200 and the file starts over. Without a validator the download starts over.
@_spi(Transport) public struct DownloadFile: Sendable {
    /// Where the bytes go.
    public let url: URL
    /// Whether bytes are kept for a later resume when the download fails.
    public let isResumable: Bool
    /// The bytes already on disk that the request asks the server to continue after.
    private(set) var offset: Int64 = 0

    private var recordURL: URL { Self.record(of: url) }

    /// Where the record of a resumable download into `url` is kept.
    static func record(of url: URL) -> URL { url.appendingPathExtension("resume") }

    /// Prepares `request` to download into `resumableURL`, or into a new temporary file.
    init(resumableURL: URL?, request: inout URLRequest) {
        // Ranges count bytes of the encoded entity; ask for it unencoded so offsets hold.
        request.setField("identity", named: "Accept-Encoding")
        guard let resumableURL else {
            url = FileManager.default.temporaryDirectory
                .appendingPathComponent("EndpointKit-\(UUID().uuidString).download")
            isResumable = false
            return
        }
        url = resumableURL
        isResumable = true
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
        if size > 0, let validator = try? String(contentsOf: recordURL, encoding: .utf8), !validator.isEmpty {
            offset = size
            request.setField("bytes=\(size)-", named: "Range")
            request.setField(validator, named: "If-Range")
        }
    }

    /// Opens the file for a 2xx response: appends after a 206 that continues at ``offset``,
    /// starts over after anything else. Returns the handle and the bytes already there.
    public mutating func open(for response: HTTPURLResponse) throws -> (FileHandle, Int64) {
        let continues = response.statusCode == 206 && Self.rangeStart(of: response) == offset && offset > 0
        if !continues { offset = 0 }
        if !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(offset))
        try handle.seekToEnd()
        if isResumable {
            if let validator = Self.rangeValidator(of: response) {
                try Data(validator.utf8).write(to: recordURL)
            } else {
                try? FileManager.default.removeItem(at: recordURL)
            }
        }
        return (handle, offset)
    }

    /// What a resume sends as `If-Range`: the entity's `ETag`, unless it is weak (a server
    /// compares `If-Range` strongly, so a weak tag never matches: RFC 9110, 13.1.5), else its
    /// `Last-Modified`.
    static func rangeValidator(of response: HTTPURLResponse) -> String? {
        if let tag = response.value(forHTTPHeaderField: "ETag"), !tag.hasPrefix("W/") { return tag }
        return response.value(forHTTPHeaderField: "Last-Modified")
    }

    /// The download completed: the file is the caller's now.
    public func completed() {
        try? FileManager.default.removeItem(at: recordURL)
    }

    /// The entity's size, when `response` refuses the range a resumed download into `url`
    /// asked for because the file already holds the whole entity: a `416` whose
    /// `Content-Range: bytes */N` names the file's size, to a request whose `If-Range` the
    /// server matched (else it would have sent the entity with a `200`); `nil` otherwise. That
    /// happens when a download broke after its last byte (a chunked body that lacked its end,
    /// say): the download is complete, where asking again would meet the same `416` every time.
    static func wholeEntitySize(at url: URL, refused response: HTTPURLResponse) -> Int64? {
        guard response.statusCode == 416, FileManager.default.fileExists(atPath: record(of: url).path),
            let total = rangeTotal(of: response), total > 0,
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value,
            size == total
        else { return nil }
        return total
    }

    /// Deletes the bytes kept in `url` for a resume, and their record, after the server
    /// refused their range (`416`) though they are not the whole entity: they cannot be its
    /// prefix, so the next download starts over instead of meeting the same `416`.
    static func discard(_ url: URL) {
        guard FileManager.default.fileExists(atPath: record(of: url).path) else { return }
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.removeItem(at: record(of: url))
    }

    /// The download completed, but no one takes it (the call was cancelled meanwhile): a
    /// temporary file is deleted, a resumable one is the caller's.
    public func abandoned() {
        if !isResumable { try? FileManager.default.removeItem(at: url) }
    }

    /// The download failed: keep what can be resumed, delete the rest.
    public func failed() {
        if isResumable, FileManager.default.fileExists(atPath: recordURL.path) { return }
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.removeItem(at: recordURL)
    }

    /// The first byte of a 206's `Content-Range: bytes 100-199/1000`.
    static func rangeStart(of response: HTTPURLResponse) -> Int64? {
        guard let range = response.value(forHTTPHeaderField: "Content-Range"),
            let bytes = range.split(separator: " ").last,
            let start = bytes.split(separator: "-").first
        else { return nil }
        return Int64(start)
    }

    /// The complete entity's size from `Content-Range: bytes 100-199/1000`.
    public static func rangeTotal(of response: HTTPURLResponse) -> Int64? {
        guard let range = response.value(forHTTPHeaderField: "Content-Range"),
            let total = range.split(separator: "/").last
        else { return nil }
        return Int64(total)
    }
}
