import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One REST call, described once: how to build its request and how to turn its response into
/// typed ``Content``.
///
/// Run an endpoint through any ``Client``, such as ``URLSessionClient``, with a completion
/// handler or with `async`/`await`. The request's URL may be relative (a path such as `"books"`);
/// the client's ``BaseRequestAdapter`` resolves it against the base URL.
public protocol Endpoint: EndpointSettings {
    /// The value the call produces.
    associatedtype Content: Sendable

    /// Builds the request. Throwing here fails the call with
    /// ``EndpointKitError/invalidRequest(endpoint:underlying:)``.
    func makeRequest() throws -> URLRequest

    /// Turns the (already validated) response body into ``Content``.
    ///
    /// A `DecodingError` thrown here reaches the caller wrapped in
    /// ``EndpointKitError/decodingFailed(_:)`` with the type, the coding path and the body's first
    /// bytes; any other error reaches the caller as thrown.
    func content(from response: URLResponse?, with body: Data) throws -> Content

    /// Checks the response before ``content(from:with:)`` runs.
    ///
    /// The default implementation throws ``EndpointKitError/unacceptableStatus(_:)`` for any status
    /// outside `200..<300`, carrying the status code, the headers and the body's first bytes.
    func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws
}

extension Endpoint {
    /// Throws ``EndpointKitError/unacceptableStatus(_:)`` unless the status is in `200..<300`.
    public func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        try defaultValidation(request, response: response, data: data)
    }
}

extension Endpoint where Content == Void {
    /// Ignores the body: for calls answered with `204 No Content` or whose body does not matter.
    public func content(from response: URLResponse?, with body: Data) throws {}
}
