import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call whose response body is written to a file as it arrives (memory stays flat however
/// large it is), and whose ``Content`` is built from that file.
///
/// Run it with ``Client/download(_:completionHandler:)`` or ``Client/download(_:progress:)``.
///
/// ## Where the bytes go
/// By default, into a new temporary file that is deleted if the download fails or is
/// cancelled. Set ``resumableFileURL`` to keep the bytes of a failed or cancelled download
/// there: the next download of the endpoint then asks only for the rest (`Range` with
/// `If-Range`) and starts over if the server sends the whole entity instead.
public protocol DownloadEndpoint: EndpointSettings {
    /// The value the call produces.
    associatedtype Content: Sendable

    /// Builds the request.
    func makeRequest() throws -> URLRequest

    /// Where the bytes are kept while downloading, so an interrupted download can resume;
    /// `nil` (the default) for a temporary file that is deleted on failure.
    var resumableFileURL: URL? { get }

    /// Builds ``Content`` from the complete file. The file is yours from here on: move it or
    /// read it; EndpointKit does not delete it.
    func content(from response: URLResponse?, fileURL: URL) throws -> Content

    /// Checks the response before the file is handed over. `data` holds the body only when the
    /// status is outside `200..<300` (the first 64 KiB of it); otherwise it is `nil`.
    func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws
}

extension DownloadEndpoint {
    /// A temporary file, deleted if the download fails.
    public var resumableFileURL: URL? { nil }

    /// Throws ``EndpointKitError/unacceptableStatus(_:)`` unless the status is in `200..<300`.
    public func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        try defaultValidation(request, response: response, data: data)
    }
}

extension DownloadEndpoint where Content == URL {
    /// The downloaded file itself.
    public func content(from response: URLResponse?, fileURL: URL) throws -> URL { fileURL }
}
