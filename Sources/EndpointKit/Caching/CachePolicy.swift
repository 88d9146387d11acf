/// How one call uses its client's ``HTTPCache``: an endpoint setting
/// (``EndpointSettings/cachePolicy``), like its timeout.
///
/// Whatever the policy, only `GET` answers are stored and served; downloads and streams never
/// touch the cache. A stored answer marked `must-revalidate` or `no-cache` is never served
/// stale, whatever the policy (RFC 9111 forbids it).
public enum CachePolicy: Sendable, Equatable {
    /// HTTP's rules (RFC 9111, RFC 5861): a fresh stored answer is served, a stale one is
    /// revalidated, served while it is revalidated, or served when the origin fails, as its
    /// `Cache-Control` allows. The default.
    case useProtocolRules
    /// Asks the origin without looking at what is stored; the answer is stored as usual.
    case reload
    /// Never asks the origin: a stored answer, fresh or stale, or
    /// ``EndpointKitError/notCached(url:)`` when there is none to use. For working offline.
    case onlyIfCached
    /// A stored answer, fresh or stale, without asking the origin; the origin only when
    /// nothing usable is stored.
    case returnStaleElseLoad
}
