import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A GET of `path` whose content is the raw body.
public struct RawBytes: Endpoint {
    /// The body as it came.
    public typealias Content = Data
    /// The path, relative to the client's base URL.
    public let path: String

    /// A GET of `path`.
    public init(path: String) {
        self.path = path
    }

    /// A GET of ``path``.
    public func makeRequest() throws -> URLRequest { try URLRequest(.get, path) }

    /// The body.
    public func content(from response: URLResponse?, with body: Data) throws -> Data { body }
}
