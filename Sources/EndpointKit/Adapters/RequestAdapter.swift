import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Transforms every request before it is sent: resolves the base URL, adds headers, signs it.
///
/// A synchronous `func adapt(_:) throws -> URLRequest` also conforms. An error thrown here fails
/// the call with ``EndpointKitError/requestAdapterFailed(adapter:underlying:)`` naming the adapter.
/// Compose several with ``RequestAdapterChain``.
public protocol RequestAdapter: Sendable {
    /// Returns the request to send in place of `request`.
    func adapt(_ request: URLRequest) async throws -> URLRequest
}
