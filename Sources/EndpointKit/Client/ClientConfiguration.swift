import Foundation

/// Everything a client is set up with that does not depend on its HTTP engine: give the same
/// value to `URLSessionClient(_:)` or to the AsyncHTTPClient-backed client, so moving a service
/// from one to the other is one line.
///
/// ```swift
/// let configuration = ClientConfiguration(
///     baseURL: URL(string: "https://api.example.com/v1")!, adapters: [auth], retryPolicy: .default)
/// let client = URLSessionClient(configuration)        // or AsyncHTTPClientClient(configuration)
/// ```
public struct ClientConfiguration: Sendable {
    /// Transforms every request before it is sent: the base URL first, then the adapters given,
    /// in order, when made from a base URL.
    public var requestAdapter: any RequestAdapter
    /// Sees the outcome of every call, once, before the caller does.
    public var responseObserver: ResponseObserver?
    /// See the life of every call as typed events (logging, metrics, tracing), in order.
    public var monitors: [any CallMonitor] = []
    /// How failed attempts are retried, unless an endpoint gives its own; none by default.
    public var retryPolicy: RetryPolicy = .none
    /// The longest one attempt may take, in seconds, unless an endpoint gives its own (for a
    /// stream: the longest wait for its head, then for each of its body's next bytes); `nil`
    /// leaves the engine's idle timeout (60 s for both clients).
    public var timeout: TimeInterval?
    /// The largest response body kept in memory, in bytes; 100 MiB by default. Also the longest
    /// line or event a stream's `lines` and `events` hold.
    public var maximumBodySize = 100 << 20
    /// Answers `GET`s from stored responses by HTTP's caching rules; none by default.
    public var cache: HTTPCache?
    /// Where cookies that responses set are kept and taken from for later requests. `nil`
    /// leaves the client's own default: none for the AsyncHTTPClient-backed client, the session
    /// configuration's storage (`HTTPCookieStorage.shared` unless changed) for `URLSessionClient`,
    /// which on Linux keeps cookies in memory for itself instead of in that shared one (a file
    /// there). A ``CookieJar`` keeps them in memory for this client alone.
    public var cookieStorage: (any CookieStore)?
    /// How the client protects itself and the services it calls under failure and load; a
    /// retry budget alone by default.
    public var overload: OverloadPolicy = .default
    /// Where completion handlers run; `nil` for the client's private serial queue (never the
    /// main queue).
    public var completionQueue: DispatchQueue?

    /// A configuration whose requests go through `requestAdapter`.
    public init(requestAdapter: any RequestAdapter) {
        self.requestAdapter = requestAdapter
    }

    /// A configuration whose requests are resolved against `baseURL`, then go through
    /// `adapters` in order (credentials, signing, headers), with the settings given.
    public init(
        baseURL: URL, adapters: [any RequestAdapter] = [], responseObserver: ResponseObserver? = nil,
        monitors: [any CallMonitor] = [], retryPolicy: RetryPolicy = .none, timeout: TimeInterval? = nil,
        maximumBodySize: Int = 100 << 20, cache: HTTPCache? = nil, cookieStorage: (any CookieStore)? = nil,
        overload: OverloadPolicy = .default, completionQueue: DispatchQueue? = nil
    ) {
        self.requestAdapter = Self.adapter(baseURL: baseURL, adapters: adapters)
        self.responseObserver = responseObserver
        self.monitors = monitors
        self.retryPolicy = retryPolicy
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.cache = cache
        self.cookieStorage = cookieStorage
        self.overload = overload
        self.completionQueue = completionQueue
    }

    /// A ``BaseRequestAdapter`` for `baseURL`, followed by `adapters` in order: a request
    /// reaches them with its full URL, so a signing adapter signs what is sent.
    public static func adapter(baseURL: URL, adapters: [any RequestAdapter]) -> any RequestAdapter {
        let base = BaseRequestAdapter(baseURL: baseURL)
        return adapters.isEmpty ? base : RequestAdapterChain([base] + adapters)
    }
}
