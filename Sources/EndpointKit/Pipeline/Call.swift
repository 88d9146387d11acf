import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one call sends and how its response becomes content: the part that differs between
/// plain, upload and download endpoints (``RequestCall``, ``UploadCall``, ``DownloadCall``).
/// The pipeline is generic over it, so a call allocates nothing to hold its endpoint. SPI for
/// EndpointKit's client packages.
@_spi(Transport) public protocol Call: Sendable {
    /// What the call returns.
    associatedtype Content: Sendable
    /// The endpoint's type, whose settings apply.
    associatedtype Settings: EndpointSettings

    /// The endpoint.
    var endpoint: Settings { get }

    /// The request (and a multipart form to write to a file as its body, if any).
    func makeOutgoing() throws -> (Outgoing, MultipartFormData?)

    /// Where the body of an answer to `request` goes: a file for a download (whose range it
    /// may ask for in `request`), else `nil` for memory.
    func downloadFile(for request: inout URLRequest) -> DownloadFile?

    /// Throws when the endpoint refuses `received`, the answer to `request`. The Foundation
    /// response is built only if the endpoint asks for it (see ``ResponseHead``).
    func validate(_ request: URLRequest, _ received: ReceivedResponse) throws

    /// The content the endpoint makes of `received`.
    func content(_ received: ReceivedResponse) throws -> Content
}

@_spi(Transport) extension Call {
    /// A body in memory.
    public func downloadFile(for request: inout URLRequest) -> DownloadFile? { nil }
}
