import AsyncHTTPClient
@_spi(Transport) @_spi(Locking) import EndpointKit
import Foundation
import Logging
import NIOCore
import NIOSSL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``EndpointKit/Client`` over swift-server's AsyncHTTPClient, for servers and other busy
/// processes: the same endpoints, adapters, observer, retries, timeouts, uploads, downloads,
/// progress, errors and cancellation as `URLSessionClient`, on SwiftNIO.
///
/// ## Lifecycle
/// Give it an `HTTPClient` to share one connection pool (it is *borrowed*: you shut it down),
/// or let it make its own (*owned*: call ``shutdown()`` when done; a client dropped without it
/// is shut down in the background, and counted by ``unclosedClientCount`` so tests can catch
/// the mistake). After ``shutdown()`` calls fail with ``EndpointKit/EndpointKitError/clientInvalidated``.
///
/// A borrowed `HTTPClient` should have `redirectConfiguration: .disallow`: EndpointKit follows
/// redirects itself, with the rules `URLSessionClient` uses.
///
/// ## Differences from URLSessionClient
/// - A request whose body is a one-shot `URLRequest.httpBodyStream` is refused (use
///   ``EndpointKit/UploadEndpointBody/stream(_:)``, which can be sent again).
/// - A ``EndpointKit/ProducedBody`` is sent as it is produced (`URLSessionClient` reads it first).
/// - Upload progress counts bytes handed to the connection, not acknowledged by the peer.
public final class AsyncHTTPClientClient: Client {
    /// The queue completion handlers run on unless a call says otherwise: a private serial queue.
    public static let defaultCompletionQueue = DispatchQueue(label: "EndpointKitAsyncHTTPClient.completion")

    private static let unclosed = Locked(0)

    /// How many clients that made their own `HTTPClient` were dropped without ``shutdown()``.
    public static var unclosedClientCount: Int { unclosed.withLock { $0 } }

    /// The queue completion handlers run on.
    public let completionQueue: DispatchQueue
    private let httpClient: HTTPClient
    /// An owned HTTP/1.1 client for `https` requests with a body, beside an owned `httpClient`
    /// that may speak HTTP/2 (see ``AsyncHTTPClientTransport/uploadClient``).
    private let uploadClient: HTTPClient?
    private let ownsHTTPClient: Bool
    private let calls = CallsInFlight()
    let pipeline: Pipeline
    private let tlsConfiguration: TLSConfiguration

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - requestAdapter: Transforms every request; usually a ``EndpointKit/BaseRequestAdapter``.
    ///   - httpClient: An `HTTPClient` to borrow; `nil` makes one the client owns.
    ///   - completionQueue: Where completion handlers run; a private serial queue by default.
    ///   - responseObserver: Called once per call with its outcome (and per retried attempt).
    ///   - monitors: See every call's events (`CallMonitor`); none by default.
    ///   - retryPolicy: How failed attempts are retried; none by default.
    ///   - timeout: The longest one attempt may take, in seconds; `nil` for no limit.
    ///   - maximumBodySize: The largest body kept in memory (and line or event a stream holds); 100 MiB by default.
    ///   - tlsConfiguration: TLS for `https` calls of an owned `HTTPClient` and for every `wss`
    ///     WebSocket; the system's trust roots by default. (A borrowed `HTTPClient` keeps its own
    ///     TLS settings for HTTP calls.)
    ///   - cookieStorage: Where cookies that responses set are kept and taken from for later
    ///     requests (and redirects); `nil`, the default, keeps none. A ``EndpointKit/CookieJar``
    ///     keeps them in memory for this client alone; a server acting for many users should
    ///     give each user (or tenant) a client with its own jar, or keep none.
    ///     `HTTPCookieStorage.shared` keeps them as `URLSessionClient` does, but on Linux it is
    ///     a file shared by every program built in the same configuration.
    ///   - cache: An `HTTPCache` that answers `GET`s by HTTP's rules; none by default.
    ///   - overload: Retry budget, circuit breaker, concurrency limit and hedging
    ///     (`OverloadPolicy`); a retry budget alone by default.
    ///   - logger: Where AsyncHTTPClient logs what it does for each request and its connection
    ///     pool (mostly at `.trace` and `.debug`), so those lines land with yours; none by
    ///     default. Each response part it logs is written as its kind only (`head`, `body`,
    ///     `end`), without its header fields or bytes. (EndpointKitTelemetry's `LoggingMonitor`
    ///     logs the calls themselves.)
    ///   - httpVersion: The HTTP versions an owned `HTTPClient` offers: `.automatic` (the
    ///     default) speaks HTTP/2 to a server that offers it over TLS, many calls over one
    ///     connection, but for requests with a body, which keep to HTTP/1.1 on connections of
    ///     their own (AsyncHTTPClient can crash on HTTP/2 when a server answers before the body
    ///     is all sent); `.http1Only` keeps every call to HTTP/1.1.
    public init(
        requestAdapter: any RequestAdapter,
        httpClient: HTTPClient? = nil,
        completionQueue: DispatchQueue = AsyncHTTPClientClient.defaultCompletionQueue,
        responseObserver: ResponseObserver? = nil,
        monitors: [any CallMonitor] = [],
        retryPolicy: RetryPolicy = .none,
        timeout: TimeInterval? = nil,
        maximumBodySize: Int = 100 << 20,
        tlsConfiguration: TLSConfiguration? = nil,
        cookieStorage: (any CookieStore)? = nil,
        cache: HTTPCache? = nil,
        overload: OverloadPolicy = .default,
        logger: Logger? = nil,
        httpVersion: HTTPClient.Configuration.HTTPVersion = .automatic
    ) {
        var configuration = Self.configuration
        configuration.tlsConfiguration = tlsConfiguration
        configuration.httpVersion = httpVersion
        // The response parts AsyncHTTPClient logs at `.trace` are written without their fields or bytes.
        let logger = logger.map(ResponsePartRedaction.wrapping)
        let activityLogger = logger ?? Logger(label: "EndpointKitAsyncHTTPClient", factory: { _ in SwiftLogNoOpLogHandler() })
        let client =
            httpClient ?? HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration, backgroundActivityLogger: activityLogger)
        let mayUseHTTP2 = httpClient == nil && httpVersion != .http1Only
        self.uploadClient = mayUseHTTP2 ? Self.uploadClient(configuration, logger: activityLogger) : nil
        self.tlsConfiguration = tlsConfiguration ?? .makeClientConfiguration()
        self.httpClient = client
        self.ownsHTTPClient = httpClient == nil
        self.completionQueue = completionQueue
        self.pipeline = Pipeline(
            requestAdapter: requestAdapter, responseObserver: responseObserver, monitors: monitors,
            retryPolicy: retryPolicy, timeout: timeout, maximumBodySize: maximumBodySize, cache: cache, overload: overload,
            transport: AsyncHTTPClientTransport(
                httpClient: client, uploadClient: uploadClient, cookieStorage: cookieStorage,
                silentCalls: httpClient.map { SilentCallWatch(on: $0.eventLoopGroup.next()) }, logger: logger, calls: calls,
                soloEventLoop: client.eventLoopGroup.next(), timeLimits: TimeLimitWatch(on: client.eventLoopGroup.next())))
    }

    /// Creates a client whose requests are resolved against `baseURL`, then go through
    /// `adapters` in order; the other parameters are those of
    /// ``init(requestAdapter:httpClient:completionQueue:responseObserver:monitors:retryPolicy:timeout:maximumBodySize:tlsConfiguration:cookieStorage:cache:overload:logger:httpVersion:)``.
    public convenience init(
        baseURL: URL,
        adapters: [any RequestAdapter] = [],
        httpClient: HTTPClient? = nil,
        completionQueue: DispatchQueue = AsyncHTTPClientClient.defaultCompletionQueue,
        responseObserver: ResponseObserver? = nil,
        monitors: [any CallMonitor] = [],
        retryPolicy: RetryPolicy = .none,
        timeout: TimeInterval? = nil,
        maximumBodySize: Int = 100 << 20,
        tlsConfiguration: TLSConfiguration? = nil,
        cookieStorage: (any CookieStore)? = nil,
        cache: HTTPCache? = nil,
        overload: OverloadPolicy = .default,
        logger: Logger? = nil,
        httpVersion: HTTPClient.Configuration.HTTPVersion = .automatic
    ) {
        self.init(
            requestAdapter: ClientConfiguration.adapter(baseURL: baseURL, adapters: adapters), httpClient: httpClient,
            completionQueue: completionQueue, responseObserver: responseObserver, monitors: monitors,
            retryPolicy: retryPolicy, timeout: timeout, maximumBodySize: maximumBodySize, tlsConfiguration: tlsConfiguration,
            cookieStorage: cookieStorage, cache: cache, overload: overload, logger: logger, httpVersion: httpVersion)
    }

    /// Creates a client from a configuration shared with `URLSessionClient`; the engine's own
    /// settings follow (see
    /// ``init(requestAdapter:httpClient:completionQueue:responseObserver:monitors:retryPolicy:timeout:maximumBodySize:tlsConfiguration:cookieStorage:cache:overload:logger:httpVersion:)``).
    public convenience init(
        _ configuration: ClientConfiguration, httpClient: HTTPClient? = nil, tlsConfiguration: TLSConfiguration? = nil,
        logger: Logger? = nil, httpVersion: HTTPClient.Configuration.HTTPVersion = .automatic
    ) {
        self.init(
            requestAdapter: configuration.requestAdapter, httpClient: httpClient,
            completionQueue: configuration.completionQueue ?? AsyncHTTPClientClient.defaultCompletionQueue,
            responseObserver: configuration.responseObserver, monitors: configuration.monitors,
            retryPolicy: configuration.retryPolicy, timeout: configuration.timeout,
            maximumBodySize: configuration.maximumBodySize, tlsConfiguration: tlsConfiguration,
            cookieStorage: configuration.cookieStorage, cache: configuration.cache, overload: configuration.overload, logger: logger,
            httpVersion: httpVersion)
    }

    /// Stops the client: later calls fail with ``EndpointKit/EndpointKitError/clientInvalidated``,
    /// and an owned `HTTPClient` is shut down (calls in flight fail).
    public func shutdown() async throws {
        try await shutdown(gracePeriod: .zero)
    }

    /// Stops the client gracefully: new calls (and retries, those waiting to be sent among them,
    /// calls waiting for a place in their host's queue, and Server-Sent Events feeds waiting to
    /// reconnect) fail with
    /// ``EndpointKit/EndpointKitError/clientInvalidated`` at once, requests in flight (a
    /// stream's until its body is read or dropped) may finish within `gracePeriod`, then an
    /// owned `HTTPClient` is shut down, which fails any still running. Calling it again does
    /// nothing. `EndpointKitServiceLifecycle` runs it when a `ServiceGroup` shuts down.
    public func shutdown(gracePeriod: Duration) async throws {
        guard calls.close() else { return }
        pipeline.close()
        await calls.drain(within: gracePeriod)
        if ownsHTTPClient { try await httpClient.shutdown() }
        try await uploadClient?.shutdown()
    }

    deinit {
        if ownsHTTPClient, calls.isOpen {
            Self.unclosed.withLock { $0 += 1 }
            httpClient.shutdown(queue: .global()) { _ in }
            uploadClient?.shutdown(queue: .global()) { _ in }
        }
    }

    /// Runs `endpoint` and calls `completionHandler` once, on ``completionQueue``.
    @discardableResult
    public func request<T: Endpoint>(
        _ endpoint: T, completionHandler: @escaping @Sendable (Result<T.Content, any Error>) -> Void
    ) -> Progress {
        CompletionBridge.start(on: completionQueue, completionHandler) { [pipeline] in try await pipeline.perform(RequestCall(endpoint)) }
    }

    /// Runs `endpoint` and returns its content; cancelling the task cancels the request.
    public func request<T: Endpoint>(_ endpoint: T) async throws -> T.Content {
        try await pipeline.perform(RequestCall(endpoint))
    }

    /// Sends `endpoint`'s body and calls `completionHandler` once, on ``completionQueue``.
    @discardableResult
    public func upload<T: UploadEndpoint>(
        _ endpoint: T, completionHandler: @escaping @Sendable (Result<T.Content, any Error>) -> Void
    ) -> Progress {
        CompletionBridge.start(on: completionQueue, counting: .upload, completionHandler) { [pipeline] in try await pipeline.perform(UploadCall(endpoint)) }
    }

    /// Sends `endpoint`'s body and returns its content, reporting bytes as they move.
    public func upload<T: UploadEndpoint>(
        _ endpoint: T, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> T.Content {
        try await pipeline.perform(UploadCall(endpoint), progress: progress)
    }

    /// Downloads `endpoint`'s body to a file and calls `completionHandler` once.
    @discardableResult
    public func download<T: DownloadEndpoint>(
        _ endpoint: T, completionHandler: @escaping @Sendable (Result<T.Content, any Error>) -> Void
    ) -> Progress {
        CompletionBridge.start(on: completionQueue, completionHandler) { [pipeline] in try await pipeline.perform(DownloadCall(endpoint)) }
    }

    /// Downloads `endpoint`'s body to a file (memory stays flat) and returns its content.
    public func download<T: DownloadEndpoint>(
        _ endpoint: T, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> T.Content {
        try await pipeline.perform(DownloadCall(endpoint), progress: progress)
    }

    /// Sends `endpoint` and returns once the head has arrived and been validated; the body
    /// follows as a ``EndpointKit/ResponseStream``, read from the connection only as fast as you
    /// iterate (no buffering).
    public func stream<T: Endpoint>(_ endpoint: T) async throws -> ResponseStream {
        try await pipeline.stream(endpoint)
    }

    /// Sends `endpoint`'s body as ``upload(_:progress:)`` does, a
    /// ``EndpointKit/ProducedBody`` chunk by chunk as it is produced, and streams the answer
    /// as it does for an ``EndpointKit/Endpoint``.
    public func stream<T: UploadEndpoint>(_ endpoint: T) async throws -> ResponseStream {
        try await pipeline.stream(upload: endpoint)
    }

    /// Opens a WebSocket (`ws`/`wss`, or `http`/`https` URLs) on the `HTTPClient`'s event loops,
    /// with its TLS configuration; the handshake goes through the request adapters. Messages up
    /// to 16 MiB are accepted.
    public func webSocket<T: WebSocketEndpoint>(_ endpoint: T) async throws -> WebSocket {
        guard calls.isOpen else { throw EndpointKitError.clientInvalidated }
        let group = httpClient.eventLoopGroup
        let tls = tlsConfiguration
        return try await pipeline.webSocket(endpoint) { request, timeout in
            try await NIOWebSocketChannel.open(request, group: group, tls: tls, timeout: timeout)
        }
    }
}
