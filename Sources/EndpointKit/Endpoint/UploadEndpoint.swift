import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call that sends a body from memory, a file, a stream or a multipart form, and turns the
/// response into typed ``Content``. Run it with ``Client/upload(_:completionHandler:)`` or
/// ``Client/upload(_:progress:)``.
///
/// The body is given apart from the request (not as `httpBody`), so large bodies are never
/// held in memory and can be sent again on a redirect.
public protocol UploadEndpoint: EndpointSettings {
    /// The value the call produces.
    associatedtype Content: Sendable

    /// Builds the request and its body.
    func makeRequest() throws -> (URLRequest, UploadEndpointBody)

    /// Turns the (already validated) response body into ``Content``.
    func content(from response: URLResponse?, with body: Data) throws -> Content

    /// Checks the response; by default any status outside `200..<300` throws
    /// ``EndpointKitError/unacceptableStatus(_:)``.
    func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws
}

extension UploadEndpoint {
    /// Throws ``EndpointKitError/unacceptableStatus(_:)`` unless the status is in `200..<300`.
    public func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        try defaultValidation(request, response: response, data: data)
    }
}

extension UploadEndpoint where Content == Void {
    /// Ignores the response body.
    public func content(from response: URLResponse?, with body: Data) throws {}
}

extension UploadEndpoint where Content: Decodable {
    /// Decodes ``Content`` from a JSON response body with a plain `JSONDecoder`; an empty body
    /// is `nil` when `Content` is optional.
    public func content(from response: URLResponse?, with body: Data) throws -> Content {
        try JSONDecoder().decodeBody(Content.self, from: body)
    }
}
