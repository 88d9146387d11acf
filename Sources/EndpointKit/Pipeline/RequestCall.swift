import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call of a plain endpoint: the body in memory. SPI for EndpointKit's client packages.
@_spi(Transport) public struct RequestCall<T: Endpoint>: Call {
    /// The endpoint.
    public let endpoint: T

    /// A call of `endpoint`.
    public init(_ endpoint: T) {
        self.endpoint = endpoint
    }

    /// The endpoint's request.
    public func makeOutgoing() throws -> (Outgoing, MultipartFormData?) {
        (Outgoing(request: try endpoint.makeRequest()), nil)
    }

    /// The endpoint's validation.
    public func validate(_ request: URLRequest, _ response: HTTPURLResponse, _ data: Data?) throws {
        try endpoint.validate(request, response: response, data: data)
    }

    /// The endpoint's content of the body.
    public func content(_ response: HTTPURLResponse, _ received: ReceivedResponse) throws -> T.Content {
        try endpoint.content(from: response, with: received.body)
    }
}
