import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Adds a credential to every request and refreshes it once for all calls in flight.
///
/// - Before sending, if the credential ``AuthenticationCredential/requiresRefresh``, it is
///   refreshed first.
/// - When the server rejects a request's credential (401 by default), the credential is
///   refreshed, and the call is sent again with the new one. However many calls are rejected at
///   the same time, ``Authenticator/refresh(_:)`` runs once; calls rejected with a credential
///   that has already been replaced are simply sent again.
/// - If the refresh fails, every call waiting for it fails with
///   ``EndpointKitError/requestAdapterFailed(adapter:underlying:)`` carrying that error.
///
/// Use it as the client's adapter, or in a ``RequestAdapterChain`` after the base URL:
/// ```swift
/// let auth = AuthenticatingAdapter(authenticator: TokenAuthenticator(), credential: saved)
/// let client = URLSessionClient(requestAdapter: RequestAdapterChain([BaseRequestAdapter(baseURL: api), auth]))
/// ```
public final class AuthenticatingAdapter<A: Authenticator>: RequestAdapter, RequestRetrier {
    private let authenticator: A
    private let store: CredentialStore<A.Credential>

    /// Creates the adapter with the credential to start from.
    public init(authenticator: A, credential: A.Credential) {
        self.authenticator = authenticator
        self.store = CredentialStore(credential)
    }

    /// The credential in use now (after any refresh).
    public var credential: A.Credential {
        get async { await store.current }
    }

    /// Adds the credential, refreshing it first if it says it must be.
    public func adapt(_ request: URLRequest) async throws -> URLRequest {
        var (credential, generation) = await store.snapshot
        if credential.requiresRefresh {
            credential = try await refresh(replacing: generation)
        }
        var request = request
        authenticator.apply(credential, to: &request)
        return request
    }

    /// After a rejected credential: refreshes it (once for everyone) and sends the call again.
    public func retry(_ request: URLRequest, response: HTTPURLResponse?, error: any Error, attempt: Int) async throws
        -> RetryDecision
    {
        guard let response, attempt <= 2, authenticator.isAuthenticationFailure(response, for: request) else {
            return .doNotRetry
        }
        let (current, generation) = await store.snapshot
        var probe = request
        authenticator.apply(current, to: &probe)
        if probe.allHTTPHeaderFields == request.allHTTPHeaderFields {
            _ = try await refresh(replacing: generation)
        }
        return .retry(after: 0)
    }

    private func refresh(replacing generation: Int) async throws -> A.Credential {
        do {
            return try await store.refresh(replacing: generation) { [authenticator] in try await authenticator.refresh($0) }
        } catch {
            throw EndpointKitError.requestAdapterFailed(adapter: String(describing: Self.self), underlying: error)
        }
    }
}
