import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download described inline, without a named ``DownloadEndpoint`` type: a `GET` of a path
/// whose body is written to a file as it arrives, and whose content is that file.
///
/// ```swift
/// let file = try await client.download(.file("exports/latest.zip")) { print($0.fractionCompleted ?? 0) }
/// ```
///
/// Make one with ``DownloadEndpoint/file(_:query:headers:resumingAt:)``.
public struct DownloadRequest: DownloadEndpoint {
    /// The path, relative to the client's base URL unless absolute.
    public var path: String
    /// Query items, percent-encoded as written.
    public var query: [URLQueryItem]
    /// Header fields set on the request.
    public var headers: [String: String]
    /// Where the bytes are kept, so an interrupted download resumes; `nil` for a temporary
    /// file, deleted if the download fails.
    public var resumableFileURL: URL?
    /// The longest one attempt may take, in seconds; `nil` keeps the client's.
    public var timeout: TimeInterval?
    /// How failed attempts are retried; `nil` keeps the client's.
    public var retryPolicy: RetryPolicy?

    /// Builds the `GET`.
    public func makeRequest() throws -> URLRequest {
        try URLRequest(.get, path, query: query, headers: headers)
    }
}
