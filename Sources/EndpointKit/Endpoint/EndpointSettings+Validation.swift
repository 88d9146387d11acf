import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension EndpointSettings {
    /// The validation every endpoint kind has by default: throws
    /// ``EndpointKitError/unacceptableStatus(_:)`` (status, headers, body's first bytes) unless
    /// the status is in `200..<300`.
    ///
    /// Call it from your own `validate` to extend the default rather than replace it, for example
    /// to accept `304 Not Modified` after a conditional request:
    ///
    /// ```swift
    /// func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
    ///     if response.statusCode == 304 { return }
    ///     try defaultValidation(request, response: response, data: data)
    /// }
    /// ```
    public func defaultValidation(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        try HTTPFailure.check(request, response: response, body: data)
    }
}
