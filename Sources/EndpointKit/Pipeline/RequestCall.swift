import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call of a plain endpoint: the body in memory. SPI for EndpointKit's client packages.
@_spi(Transport) public struct RequestCall<T: Endpoint>: Call {
    /// The endpoint.
    public let endpoint: T

    /// Whether the endpoint reads no more of an answer's head than its status code: the
    /// default validation (a 2xx status) and content made of the body alone, as a ``Request``
    /// does unless it is given a ``Request/validation``. Its call then never asks for a
    /// Foundation response, so a transport that does not speak Foundation (AsyncHTTPClient's)
    /// never builds one unless something else asks (a monitor, the observer, the cache, a
    /// failure's error): Foundation on Linux spends about 1.2 µs a header field building an
    /// `HTTPURLResponse`, most of what a small call costs.
    private let readsStatusOnly: Bool

    /// A call of `endpoint`.
    public init(_ endpoint: T) {
        self.endpoint = endpoint
        // A cast to the one type that can say so, not to a protocol: that costs a lookup of
        // the endpoint's conformances in every call. The cast itself looks up the metadata of
        // `Request<T.Content>` (about 800 instructions); a `Request`'s size is the same whatever
        // its content, so an endpoint of another size (most of them) is not cast at all.
        if MemoryLayout<T>.size == MemoryLayout<Request<Data>>.size, let request = endpoint as? Request<T.Content> {
            readsStatusOnly = request.validation == nil
        } else {
            readsStatusOnly = false
        }
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
