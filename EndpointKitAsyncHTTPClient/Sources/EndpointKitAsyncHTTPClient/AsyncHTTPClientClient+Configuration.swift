import AsyncHTTPClient
import Logging

/// The `HTTPClient`s an `AsyncHTTPClientClient` makes for itself.
extension AsyncHTTPClientClient {
    /// The configuration of an owned `HTTPClient`: EndpointKit follows redirects, bodies are
    /// decompressed, up to 32 connections per host are kept, and a connection silent for
    /// 60 s fails the call (`URLError.timedOut`), as `URLSession`'s default idle timeout does,
    /// so a server that never answers cannot hang a call that has no `timeout`.
    ///
    /// Connections per host: AsyncHTTPClient opens a connection for each call that waits for
    /// one, and a connection that comes up after its call was served elsewhere (or cancelled)
    /// stays idle. A server with a thread per connection (gunicorn's threaded worker, for one)
    /// holds a thread for each idle connection until its first-request timeout (5 s in
    /// gunicorn), so the calls behind them wait: with 1,024 per host, a burst of 1,000 GETs
    /// against gunicorn (2 × 16 threads) on a busy host took 20–60 s, and the next call 40 s.
    /// With 32, the same burst takes 0.2–0.3 s; a burst against a server that does 32 at a
    /// time finishes at that server's pace (16 would halve it); and against nginx at 64 calls
    /// in flight the throughput is within 5 % of 64 connections' (`Bench burst`,
    /// `Bench overload`, `Bench hammer`). Calls beyond 32 wait in AsyncHTTPClient's queue for a
    /// free connection; ``EndpointKit/ConcurrencyLimit`` bounds that queue.
    ///
    /// Tracing: AsyncHTTPClient's own request spans are off (`tracing.tracer` is `nil`), so
    /// EndpointKitTelemetry's `TracingMonitor` makes the one span of each call.
    ///
    /// Connecting: a refused connection fails at once (`URLError.cannotConnectToHost`; no
    /// retried connection attempts, `connectionPool.retryConnectionEstablishment` is `false`),
    /// and a host that does not answer fails after the connect timeout, 10 s
    /// (`URLError.timedOut`). To change it, borrow an `HTTPClient` made from this
    /// configuration with `timeout.connect` set.
    public static var configuration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, decompression: .enabled(limit: .none))
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
        configuration.timeout.read = .seconds(60)
        configuration.timeout.connect = .seconds(10)
        // A refused connection fails the call at once, as libcurl does, instead of being tried
        // again until the connect timeout: retrying is the RetryPolicy's decision.
        configuration.connectionPool.retryConnectionEstablishment = false
        // EndpointKit's TracingMonitor makes the request's span (one per call, retries and
        // redirects in it); AsyncHTTPClient's own would be a second span for the same request.
        configuration.tracing.tracer = nil
        return configuration
    }

    /// The HTTP/1.1 client for `https` requests with a body (see
    /// ``AsyncHTTPClientTransport/uploadClient``), with `configuration`'s other settings.
    static func uploadClient(_ configuration: HTTPClient.Configuration, logger: Logger) -> HTTPClient {
        var configuration = configuration
        configuration.httpVersion = .http1Only
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration, backgroundActivityLogger: logger)
    }
}
