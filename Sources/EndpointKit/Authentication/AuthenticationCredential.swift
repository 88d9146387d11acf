/// A credential an ``Authenticator`` applies to requests and refreshes: a token pair, say.
public protocol AuthenticationCredential: Sendable {
    /// Whether it must be refreshed before its next use (it expires within a margin you choose).
    /// ``AuthenticatingAdapter`` then refreshes it before sending, once for all calls.
    var requiresRefresh: Bool { get }
}
