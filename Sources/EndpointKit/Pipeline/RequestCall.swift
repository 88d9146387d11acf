import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call of a plain endpoint: the body in memory. SPI for EndpointKit's client packages.
@_spi(Transport) public struct RequestCall<T: Endpoint>: Call {
    /// The endpoint.
    public let endpoint: T

    /// Whether the endpoint reads only the answer's status code (see `StatusOnlyEndpoint`).
    private let readsStatusOnly: Bool

    /// A call of `endpoint`.
    public init(_ endpoint: T) {
        self.endpoint = endpoint
        readsStatusOnly = (endpoint as? any StatusOnlyEndpoint)?.readsStatusOnly == true
    }

    /// The endpoint's request.
    public func makeOutgoing() throws -> (Outgoing, MultipartFormData?) {
        (Outgoing(request: try endpoint.makeRequest()), nil)
    }

    /// The endpoint's validation; for one that reads only the status, the default one, which
    /// needs the Foundation response only to report a status it refuses.
    public func validate(_ request: URLRequest, _ received: ReceivedResponse) throws {
        if readsStatusOnly, HTTPFailure.accepts(received.head.statusCode) { return }
        try endpoint.validate(request, response: received.head.response, data: received.body)
    }

    /// The endpoint's content of the body (given no Foundation response when it reads only
    /// the status).
    public func content(_ received: ReceivedResponse) throws -> T.Content {
        try endpoint.content(from: readsStatusOnly ? nil : received.response, with: received.body)
    }
}
