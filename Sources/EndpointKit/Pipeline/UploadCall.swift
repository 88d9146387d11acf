import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call of an upload endpoint: the body sent apart from the request. SPI for EndpointKit's
/// client packages.
@_spi(Transport) public struct UploadCall<T: UploadEndpoint>: Call {
    /// The endpoint.
    public let endpoint: T

    /// A call of `endpoint`.
    public init(_ endpoint: T) {
        self.endpoint = endpoint
    }

    /// The endpoint's request and body.
    public func makeOutgoing() throws -> (Outgoing, MultipartFormData?) {
        let (request, body) = try endpoint.makeRequest()
        return try Outgoing.upload(request, body)
    }

    /// The endpoint's validation.
    public func validate(_ request: URLRequest, _ received: ReceivedResponse) throws {
        try endpoint.validate(request, response: received.head.response, data: received.body)
    }

    /// The endpoint's content of the body.
    public func content(_ received: ReceivedResponse) throws -> T.Content {
        try endpoint.content(from: received.response, with: received.body)
    }
}
