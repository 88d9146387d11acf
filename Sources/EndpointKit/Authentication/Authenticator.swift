import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How one kind of credential is applied, refreshed and recognised as rejected. Give one to an
/// ``AuthenticatingAdapter``.
public protocol Authenticator: Sendable {
    /// The credential this authenticator handles.
    associatedtype Credential: AuthenticationCredential

    /// Adds the credential to a request, for example as an `Authorization` header.
    func apply(_ credential: Credential, to request: inout URLRequest)

    /// Gets a fresh credential. Called once for all the calls that need one at the same time;
    /// an error fails all of them.
    func refresh(_ credential: Credential) async throws -> Credential

    /// Whether the server rejected the request's credential; by default, status 401.
    func isAuthenticationFailure(_ response: HTTPURLResponse, for request: URLRequest) -> Bool
}

extension Authenticator {
    /// Status 401 means the credential was rejected.
    public func isAuthenticationFailure(_ response: HTTPURLResponse, for request: URLRequest) -> Bool {
        response.statusCode == 401
    }
}
