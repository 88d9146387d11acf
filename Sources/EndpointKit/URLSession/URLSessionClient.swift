import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``Client`` built on Foundation's `URLSession`, on Linux and Apple platforms alike.
///
/// Each call runs the endpoint's `makeRequest()`, the ``requestAdapter``, the transfer, the
/// endpoint's `validate` and `content`, then the ``responseObserver`` (once), and finally
/// returns (async) or calls the completion handler on ``completionQueue``.
///
/// Subclass it to change any call: every request method is `open`, the async ones included.
/// It owns its `URLSession`, which is invalidated when the client is deinitialised or
/// ``invalidate(cancellingTasks:)`` is called; later calls fail with
/// ``EndpointKitError/clientInvalidated`` instead of crashing.
///
/// `@unchecked Sendable`: the class is `open`, so the compiler cannot check subclasses; its own
/// stored properties are immutable `let`s of `Sendable` types, and all mutable state lives in
/// the locked box of its session delegate and per-call handlers.
open class URLSessionClient: Client, @unchecked Sendable {
    /// The queue completion handlers run on unless a call says otherwise. It is a private serial
    /// queue, never the main queue (which nothing drives in a Linux command-line tool or server).
    public static let defaultCompletionQueue = DispatchQueue(label: "EndpointKit.completion")

    /// Transforms every request before it is sent (base URL, headers, credentials).
    public let requestAdapter: any RequestAdapter
    /// The queue completion handlers run on.
    public let completionQueue: DispatchQueue
    /// Sees the outcome of every call, once, before the caller does; and each attempt that is
    /// retried, as ``EndpointKitError/retrying(attempt:delay:underlying:)``.
    public let responseObserver: ResponseObserver?
    /// See the life of every call as typed events (logging, metrics, tracing), in order.
    public let monitors: [any CallMonitor]
    /// How failed attempts are retried, unless an endpoint gives its own; no retries by default.
    public let retryPolicy: RetryPolicy
    /// The longest one attempt may take, in seconds, unless an endpoint gives its own; `nil`
    /// leaves only Foundation's idle timeout (`timeoutIntervalForRequest`).
    public let timeout: TimeInterval?
    /// The largest response body kept in memory, in bytes; a larger one fails with
    /// ``EndpointKitError/bodyTooLarge(url:limit:)`` before it is read. Downloads have no limit.
    public let maximumBodySize: Int
    /// Answers `GET`s from stored responses by HTTP's caching rules, when given; `nil` (the
    /// default) caches nothing.
    public let cache: HTTPCache?
    /// How the client protects itself and the services it calls under failure and load; by
    /// default a retry budget alone (``OverloadPolicy/default``).
    public let overload: OverloadPolicy

    let session: URLSession
    let delegate: SessionDelegate
    let pipeline: Pipeline

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - requestAdapter: Transforms every request; usually a ``BaseRequestAdapter``.
    ///   - configuration: The session configuration; `URLSessionConfiguration.endpointKitDefault`
    ///     lifts Foundation's limit of 6 connections per host. On Linux the client uses a copy
    ///     without a `URLCache` (see Linux notes).
    ///   - completionQueue: Where completion handlers run; a private serial queue by default.
    ///   - responseObserver: Called once per call with its outcome.
    ///   - monitors: See every call's events (``CallMonitor``); none by default.
    ///   - retryPolicy: How failed attempts are retried; ``RetryPolicy/none`` by default.
    ///   - timeout: The longest one attempt may take, in seconds; `nil` for Foundation's idle timeout.
    ///   - maximumBodySize: The largest body kept in memory (and line or event a stream holds); 100 MiB by default.
    ///   - cache: An ``HTTPCache`` that answers `GET`s by HTTP's rules; none by default. With
    ///     one, Foundation's `URLCache` is off on every platform, so nothing is cached twice.
    ///   - overload: Retry budget, circuit breaker, concurrency limit and hedging
    ///     (``OverloadPolicy``); a retry budget alone by default.
    ///   - cookieStorage: Where cookies are kept; `nil` keeps `configuration`'s
    ///     (`HTTPCookieStorage.shared` unless changed; on Linux, where that one is a file shared
    ///     by other programs, a ``CookieJar`` of this client's own instead). A ``CookieJar``
    ///     keeps them in memory for this client alone (see ``ClientConfiguration/cookieStorage``).
    public init(
        requestAdapter: any RequestAdapter,
        configuration: URLSessionConfiguration = .endpointKitDefault,
        completionQueue: DispatchQueue = URLSessionClient.defaultCompletionQueue,
        responseObserver: ResponseObserver? = nil,
        monitors: [any CallMonitor] = [],
        retryPolicy: RetryPolicy = .none,
        timeout: TimeInterval? = nil,
        maximumBodySize: Int = 100 << 20,
        cache: HTTPCache? = nil,
        overload: OverloadPolicy = .default,
        cookieStorage: (any CookieStore)? = nil
    ) {
        self.requestAdapter = requestAdapter
        self.overload = overload
        self.completionQueue = completionQueue
        self.responseObserver = responseObserver
        self.monitors = monitors
        self.retryPolicy = retryPolicy
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.cache = cache
        let delegate = SessionDelegate()
        self.delegate = delegate
        // On Linux a URLCache makes each task look up the cache before it loads, and a cancel
        // that lands during that lookup crashes the process (TaskRegistry.swift:118, seen within
        // 10,000 random cancellations): URLCache is always off there. Elsewhere it is off when
        // an HTTPCache answers instead.
        let configuration = Self.session(configuration, cache: cache)
        let cookies = Self.cookieStoreKeptByTheClient(cookieStorage, settingUp: configuration)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: delegate.queue)
        self.session = session
        let transport = URLSessionTransport(session: session, delegate: delegate)
        self.pipeline = Pipeline(
            requestAdapter: requestAdapter, responseObserver: responseObserver, monitors: monitors,
            retryPolicy: retryPolicy, timeout: timeout, maximumBodySize: maximumBodySize, cache: cache, overload: overload,
            transport: cookies.map { CookieTransport(store: $0, transport: transport) } ?? transport)
    }

    /// Creates a client from a configuration shared with the AsyncHTTPClient-backed client;
    /// `session` is the `URLSession`'s own (see ``init(requestAdapter:configuration:completionQueue:responseObserver:monitors:retryPolicy:timeout:maximumBodySize:cache:overload:cookieStorage:)``).
    public convenience init(_ configuration: ClientConfiguration, session: URLSessionConfiguration = .endpointKitDefault) {
        self.init(
            requestAdapter: configuration.requestAdapter, configuration: session,
            completionQueue: configuration.completionQueue ?? URLSessionClient.defaultCompletionQueue,
            responseObserver: configuration.responseObserver, monitors: configuration.monitors,
            retryPolicy: configuration.retryPolicy, timeout: configuration.timeout,
            maximumBodySize: configuration.maximumBodySize, cache: configuration.cache, overload: configuration.overload,
            cookieStorage: configuration.cookieStorage)
    }

    /// Creates a client whose requests are resolved against `baseURL`, then go through
    /// `adapters` in order (credentials, signing, headers).
    public convenience init(
        baseURL: URL,
        adapters: [any RequestAdapter] = [],
        configuration: URLSessionConfiguration = .endpointKitDefault,
        completionQueue: DispatchQueue = URLSessionClient.defaultCompletionQueue,
        responseObserver: ResponseObserver? = nil,
        monitors: [any CallMonitor] = [],
        retryPolicy: RetryPolicy = .none,
        timeout: TimeInterval? = nil,
        maximumBodySize: Int = 100 << 20,
        cache: HTTPCache? = nil,
        overload: OverloadPolicy = .default,
        cookieStorage: (any CookieStore)? = nil
    ) {
        self.init(
            requestAdapter: ClientConfiguration.adapter(baseURL: baseURL, adapters: adapters), configuration: configuration,
            completionQueue: completionQueue, responseObserver: responseObserver, monitors: monitors,
            retryPolicy: retryPolicy, timeout: timeout, maximumBodySize: maximumBodySize, cache: cache, overload: overload,
            cookieStorage: cookieStorage)
    }

    /// A copy of `configuration` for the session: without a `URLCache` on Linux, or when an
    /// `HTTPCache` replaces it. Its cookies are set up by
    /// ``cookieStoreKeptByTheClient(_:settingUp:)``.
    private static func session(_ configuration: URLSessionConfiguration, cache: HTTPCache?) -> URLSessionConfiguration {
        let copy = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        #if canImport(FoundationNetworking)
            copy.urlCache = nil
        #else
            if cache != nil { copy.urlCache = nil }
        #endif
        return copy
    }

    deinit {
        invalidate()
    }

    /// Stops the client: calls made from now on fail with ``EndpointKitError/clientInvalidated``,
    /// and so, at once, do retries waiting to be sent, calls waiting for a place in their
    /// host's queue (``ConcurrencyLimit``) and Server-Sent Events feeds waiting to reconnect.
    ///
    /// - Parameter cancellingTasks: `true` cancels the calls in flight (they fail with
    ///   `CancellationError` only if the caller cancelled; otherwise with a transport error);
    ///   `false` lets them finish.
    public final func invalidate(cancellingTasks: Bool = false) {
        guard delegate.invalidate() else { return }
        pipeline.close()
        if cancellingTasks {
            // Not `invalidateAndCancel()`: on Linux it cancels each task from the calling thread,
            // where a cancel can race the task's completion and crash the process (see
            // `SessionDelegate.cancel(_:)`). The tasks Foundation lists come to the delegate
            // queue, and are cancelled there.
            session.getAllTasks { tasks in
                for task in tasks { task.cancel() }
            }
        }
        session.finishTasksAndInvalidate()
    }

    /// Stops the client as ``invalidate(cancellingTasks:)`` does, letting the calls in flight
    /// finish: the ``Client`` protocol's way to clean up.
    open func shutdown() async throws {
        invalidate()
    }

    /// Runs `endpoint` and calls `completionHandler` once, on ``completionQueue``, with its
    /// content or error. `cancel()` on the returned `Progress` cancels the call.
    @discardableResult
    open func request<T: Endpoint>(
        _ endpoint: T,
        completionHandler: @escaping @Sendable (Result<T.Content, any Error>) -> Void
    ) -> Progress {
        CompletionBridge.start(on: completionQueue, completionHandler) { try await self.request(endpoint) }
    }

    /// Runs `endpoint` and returns its content. Cancelling the calling `Task` cancels the
    /// request (the connection is closed) and throws `CancellationError`.
    open func request<T: Endpoint>(_ endpoint: T) async throws -> T.Content {
        try await pipeline.perform(RequestCall(endpoint))
    }

    /// Sends `endpoint`'s body and calls `completionHandler` once, on ``completionQueue``. The
    /// returned `Progress` counts the bytes sent (then received), and `cancel()` cancels the call.
    @discardableResult
    open func upload<T: UploadEndpoint>(
        _ endpoint: T,
        completionHandler: @escaping @Sendable (Result<T.Content, any Error>) -> Void
    ) -> Progress {
        CompletionBridge.start(on: completionQueue, counting: .upload, completionHandler) { try await self.upload(endpoint, progress: nil) }
    }

    /// Sends `endpoint`'s body and returns its content, reporting bytes as they move.
    open func upload<T: UploadEndpoint>(
        _ endpoint: T, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> T.Content {
        try await pipeline.perform(UploadCall(endpoint), progress: progress)
    }

    /// Downloads `endpoint`'s body to a file and calls `completionHandler` once, on
    /// ``completionQueue``. The returned `Progress` counts the bytes received, and `cancel()`
    /// cancels the call.
    @discardableResult
    open func download<T: DownloadEndpoint>(
        _ endpoint: T,
        completionHandler: @escaping @Sendable (Result<T.Content, any Error>) -> Void
    ) -> Progress {
        CompletionBridge.start(on: completionQueue, completionHandler) { try await self.download(endpoint, progress: nil) }
    }

    /// Downloads `endpoint`'s body to a file and returns its content, reporting bytes as they
    /// arrive. Memory stays flat however large the body is.
    open func download<T: DownloadEndpoint>(
        _ endpoint: T, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> T.Content {
        try await pipeline.perform(DownloadCall(endpoint), progress: progress)
    }

    /// Sends `endpoint` and returns once the head has arrived and been validated; the body
    /// follows as a ``ResponseStream``. Foundation cannot pause a transfer, so if more than
    /// 16 MiB arrive unread the stream fails with ``EndpointKitError/consumerTooSlow(url:limit:)``.
    open func stream<T: Endpoint>(_ endpoint: T) async throws -> ResponseStream {
        try await pipeline.stream(endpoint)
    }

    /// Sends `endpoint`'s body as ``upload(_:progress:)`` does (a ``ProducedBody`` is read to
    /// its end first: a task cannot be handed bytes once it runs) and streams the answer as
    /// it does for an ``Endpoint``.
    open func stream<T: UploadEndpoint>(_ endpoint: T) async throws -> ResponseStream {
        try await pipeline.stream(upload: endpoint)
    }

    /// Opens a WebSocket with Foundation's `URLSessionWebSocketTask`. On Linux, Foundation has
    /// no WebSocket support, and this throws ``EndpointKitError/webSocketUnsupported(url:reason:)``;
    /// use the AsyncHTTPClient-backed client there.
    open func webSocket<T: WebSocketEndpoint>(_ endpoint: T) async throws -> WebSocket {
        try await pipeline.webSocket(endpoint) { [session, delegate] request, timeout in
            try await URLSessionWebSocketChannel.open(request, session: session, delegate: delegate, timeout: timeout)
        }
    }
}
