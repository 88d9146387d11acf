import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response body as it arrives, kept the same way by every transport: in memory up to the
/// client's limit, or, for a 2xx download, into its ``DownloadFile`` in writes of about 1 MiB;
/// counted for progress. The transport does the I/O (when and where a write happens); this
/// decides what is kept. SPI for EndpointKit's client packages.
@_spi(Transport) public struct IncomingBody: Sendable {
    /// How many bytes are gathered before one write to the file: chunks arrive at about
    /// 16 KiB, and a write each would cost a system call each.
    public static let writeSize = 1 << 20

    /// The body kept in memory; empty when it goes to a file.
    public private(set) var body = Data()
    /// The download's file, if the call has one (opened for a 2xx answer).
    public private(set) var file: DownloadFile?
    /// Where the body is written, for a 2xx download.
    public private(set) var handle: FileHandle?
    /// Bytes received, those of a resumed file's kept prefix included.
    public private(set) var received: Int64 = 0
    /// The whole body's size, when it is known.
    public private(set) var total: Int64?
    /// Bytes for the file not written yet.
    private var pending = Data()
    private let bodyLimit: Int
    private let url: URL?

    /// Starts the body of `head`, whose announced length is `expected` (see
    /// ``expectedLength(method:statusCode:contentEncoding:contentLength:)``): into `file` for a
    /// 2xx answer (opened with ``DownloadFile/open(for:)``, which may resume it), else into
    /// memory, failing at once with ``EndpointKitError/bodyTooLarge(url:limit:)`` when
    /// `expected` passes `bodyLimit`.
    public init(head: HTTPURLResponse, expected: Int64?, file: DownloadFile?, bodyLimit: Int, url: URL?) throws {
        self.bodyLimit = bodyLimit
        self.url = url
        self.file = file
        if var target = file, (200..<300).contains(head.statusCode) {
            let (handle, offset) = try target.open(for: head)
            (self.file, self.handle, received) = (target, handle, offset)
            // A length past what can be counted (a 206 without a total, say) is no length.
            total = DownloadFile.rangeTotal(of: head) ?? expected.flatMap { $0.addingReportingOverflow(offset).overflow ? nil : $0 + offset }
        } else {
            try Self.check(expected, limit: bodyLimit, url: url)
            total = expected
        }
    }

    /// Fails with ``EndpointKitError/bodyTooLarge(url:limit:)`` when a body kept in memory
    /// announces more than `limit` bytes (`expected`), before any of it is read.
    public static func check(_ expected: Int64?, limit: Int, url: URL?) throws {
        if let expected, expected > limit { throw EndpointKitError.bodyTooLarge(url: url, limit: limit) }
    }

    /// Takes `chunk`: returns a buffer to write to the file now, when one is full.
    public mutating func take(_ chunk: Data) throws -> Data? {
        defer { received += Int64(chunk.count) }
        guard handle != nil else {
            guard body.count + chunk.count <= bodyLimit else { throw EndpointKitError.bodyTooLarge(url: url, limit: bodyLimit) }
            // The first chunk is kept as it is (unless it is a slice, whose indices do not start
            // at 0): a body of one chunk, as most answers are, is not copied.
            if body.isEmpty, chunk.startIndex == 0 { body = chunk } else { body.append(chunk) }
            return nil
        }
        pending.append(chunk)
        guard pending.count >= Self.writeSize else { return nil }
        defer { pending = Data(capacity: Self.writeSize) }
        return pending
    }

    /// Counts `count` bytes that went on to a reader (a streamed body, which is not kept):
    /// whether the body's declared length has now all come.
    public mutating func pass(_ count: Int) -> Bool {
        received += Int64(count)
        return isComplete
    }

    /// Whether all of the body's declared length has come.
    public var isComplete: Bool { received == total }

    /// Takes out the bytes not written yet: the last write, or, after a failure, the prefix
    /// that arrived before it (valid to resume after).
    public mutating func takePending() -> Data {
        defer { pending = Data() }
        return pending
    }

    /// The report after the last chunk taken.
    public var progress: TransferProgress {
        TransferProgress(direction: .download, completedBytes: received, totalBytes: total)
    }

    /// The last report of a body that has wholly arrived: its size is known at last.
    public var finalProgress: TransferProgress {
        TransferProgress(direction: .download, completedBytes: received, totalBytes: received)
    }

    /// The body's length as the head of an answer to `method` with `statusCode` announces it:
    /// its `Content-Length`, unless the body is encoded (then the decoded size is unknown); 0
    /// for an answer that has no body (see ``hasNoBody(method:statusCode:)``), whose length,
    /// that of a body not sent, is no reason to refuse it. Each transport reads the two fields
    /// its own fastest way.
    public static func expectedLength(method: String?, statusCode: Int, contentEncoding: String?, contentLength: String?) -> Int64? {
        guard !hasNoBody(method: method, statusCode: statusCode) else { return 0 }
        let encoding = contentEncoding?.lowercased()
        guard encoding == nil || encoding == "identity" else { return nil }
        return contentLength.flatMap { Int64($0) }
    }

    /// Whether an answer to `method` (`nil`: GET) with `statusCode` has no body, whatever its
    /// head says (RFC 9112, 6.3): an answer to a HEAD, a 1xx, a 204 and a 304. Their
    /// `Content-Length` may give the length of the body a GET or a 200 would carry.
    public static func hasNoBody(method: String?, statusCode: Int) -> Bool {
        method == "HEAD" || statusCode < 200 || statusCode == 204 || statusCode == 304
    }
}
