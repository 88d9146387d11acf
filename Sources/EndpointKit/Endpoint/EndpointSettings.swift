import Foundation

/// Settings an endpoint may give for itself; the client's apply where it gives none.
/// ``Endpoint``, ``UploadEndpoint`` and ``DownloadEndpoint`` all refine it, so an endpoint
/// overrides a setting by declaring the property.
public protocol EndpointSettings: Sendable {
    /// The longest one attempt may take, in seconds (no answer, or a stalled body); `nil` for
    /// the client's timeout.
    var timeout: TimeInterval? { get }
    /// How this endpoint's failed attempts are retried; `nil` for the client's policy.
    var retryPolicy: RetryPolicy? { get }
    /// How the client's ``HTTPCache`` answers this endpoint's `GET`s; `nil` for HTTP's rules
    /// (``CachePolicy/useProtocolRules``). Without a cache it changes nothing.
    var cachePolicy: CachePolicy? { get }
    /// Whether and when this endpoint's slow calls are hedged; `nil` for the client's
    /// ``OverloadPolicy/hedging``.
    var hedging: HedgingPolicy? { get }
    /// The name this endpoint's calls go by in ``CallContext/endpoint`` (and so in logs and
    /// traces), such as an OpenAPI operation ID; `nil` for the endpoint's type name.
    var callName: String? { get }
}

extension EndpointSettings {
    /// The client's timeout.
    public var timeout: TimeInterval? { nil }
    /// The client's retry policy.
    public var retryPolicy: RetryPolicy? { nil }
    /// HTTP's rules.
    public var cachePolicy: CachePolicy? { nil }
    /// The client's hedging.
    public var hedging: HedgingPolicy? { nil }
    /// The endpoint's type name.
    public var callName: String? { nil }
}
