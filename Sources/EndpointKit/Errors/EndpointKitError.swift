import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one error type EndpointKit throws. Each case carries the context needed to tell what
/// failed and where; `description` reads as a sentence.
///
/// The description is safe to log and to record in a trace (OpenTelemetry exporters send it
/// as `exception.message`): URLs are written as `URL.redactedDescription` puts
/// them (no credentials, no query values) and no body byte is in it. The unredacted context
/// stays in the values themselves: ``HTTPFailure/url``, ``HTTPFailure/bodyText``,
/// ``DecodingFailure/body``.
///
/// Cancellation is not a case: a cancelled call throws `CancellationError` (async API) or
/// completes with `.failure(CancellationError())` (completion API).
/// Errors thrown by your own ``Endpoint/validate(_:response:data:)`` or
/// ``Endpoint/content(from:with:)`` (other than `DecodingError`) reach you unchanged.
public enum EndpointKitError: Error, CustomStringConvertible, CustomDebugStringConvertible, Sendable {
    /// A string could not be made into a URL.
    case invalidURL(String)
    /// The endpoint's `makeRequest()` threw; `endpoint` is its type name.
    case invalidRequest(endpoint: String, underlying: any Error)
    /// A request adapter threw; `adapter` is its type name.
    case requestAdapterFailed(adapter: String, underlying: any Error)
    /// The request did not complete: connection refused or reset, DNS failure, TLS, timeout.
    /// `underlying` is usually a `URLError`.
    case transportFailed(url: URL?, underlying: any Error)
    /// The server answered with a status the endpoint does not accept.
    case unacceptableStatus(HTTPFailure)
    /// The body could not be decoded into the endpoint's content.
    case decodingFailed(DecodingFailure)
    /// The server answered with something that is not an HTTP response.
    case invalidResponse(url: URL?)
    /// The client was invalidated; it takes no more requests.
    case clientInvalidated
    /// A redirect could not be followed faithfully (for example a body that cannot be replayed).
    case redirectRefused(url: URL?, reason: String)
    /// The call's ``CachePolicy/onlyIfCached`` (or its `Cache-Control: only-if-cached`) forbids
    /// asking the origin, and the cache holds no answer for `url` that may be used.
    case notCached(url: URL?)
    /// The attempt took longer than `limit` seconds: no answer, or a body that stalled. When the
    /// call's ``CallDeadline`` cut the attempt short, `limit` is the time the call had from its
    /// start (the time the deadline gave it), not what was left to that attempt.
    case timedOut(url: URL?, limit: TimeInterval)
    /// The response body is larger than the client keeps in memory (`limit` bytes). Use a
    /// ``DownloadEndpoint`` for large bodies.
    case bodyTooLarge(url: URL?, limit: Int)
    /// A streamed body arrived faster than it was read, and more than `limit` bytes waited.
    /// (Foundation cannot pause a transfer; the AsyncHTTPClient-backed client never needs this.)
    case consumerTooSlow(url: URL?, limit: Int)
    /// Given to the response observer only: this attempt failed with `underlying` and is sent
    /// again after `delay` seconds. The caller never sees it.
    case retrying(attempt: Int, delay: TimeInterval, underlying: any Error)
    /// This client cannot open WebSockets here (`URLSessionClient` on Linux, where Foundation's
    /// libcurl has no WebSocket support); `reason` says what the platform reported. The
    /// AsyncHTTPClient-backed client opens them everywhere.
    case webSocketUnsupported(url: URL?, reason: String)
    /// A WebSocket is closing or closed, so nothing more can be sent; `code` is how it closed,
    /// when known.
    case webSocketClosed(url: URL?, code: WebSocketCloseCode?)
    /// The circuit of `host` (host and port) is open after its recent failures
    /// (``CircuitBreaker``): the call was not sent. A probe is let through at `until`.
    case circuitOpen(host: String, until: Date)
    /// `host` (host and port) already has `limit` calls in flight and its queue is full
    /// (``ConcurrencyLimit``): the call was not sent.
    case tooManyCalls(host: String, limit: Int)

    /// The HTTP status code, when the server answered.
    public var statusCode: Int? {
        switch self {
        case .unacceptableStatus(let failure): failure.statusCode
        case .decodingFailed(let failure): failure.statusCode
        case .retrying(_, _, let error): (error as? EndpointKitError)?.statusCode
        default: nil
        }
    }

    /// The error this one wraps, if any.
    public var underlyingError: (any Error)? {
        switch self {
        case .invalidRequest(_, let error), .requestAdapterFailed(_, let error),
            .transportFailed(_, let error), .retrying(_, _, let error):
            error
        case .decodingFailed(let failure): failure.underlying
        default: nil
        }
    }

    /// A readable sentence naming what failed.
    public var description: String {
        switch self {
        case .invalidURL(let string):
            "Invalid URL '\(URL.redacted(string))'"
        case .invalidRequest(let endpoint, let error):
            "\(endpoint) could not build its request: \(error)"
        case .requestAdapterFailed(let adapter, let error):
            "Request adapter \(adapter) failed: \(error)"
        case .transportFailed(let url, let error):
            "Request to \(Self.name(url)) failed: \(Self.describe(error))"
        case .unacceptableStatus(let failure):
            failure.description
        case .decodingFailed(let failure):
            failure.description
        case .invalidResponse(let url):
            "\(Self.name(url)) did not answer with an HTTP response"
        case .clientInvalidated:
            "The client was invalidated and takes no more requests"
        case .redirectRefused(let url, let reason):
            "Redirect from \(Self.name(url)) not followed: \(reason)"
        case .notCached(let url):
            "No stored answer for \(Self.name(url)) may be used, and the call may not ask the origin (only if cached)"
        case .timedOut(let url, let limit):
            "Request to \(Self.name(url)) timed out after \(Self.seconds(limit))"
        case .bodyTooLarge(let url, let limit):
            "Response from \(Self.name(url)) is larger than \(limit) bytes, the most kept in memory"
        case .consumerTooSlow(let url, let limit):
            "Stream from \(Self.name(url)) was read too slowly: more than \(limit) bytes waited"
        case .retrying(let attempt, let delay, let error):
            "Attempt \(attempt) failed, retrying in \(Self.seconds(delay)): \(error)"
        case .webSocketUnsupported(let url, let reason):
            "WebSocket to \(Self.name(url)) cannot be opened by this client here: \(reason)"
        case .webSocketClosed(let url, let code):
            "WebSocket to \(Self.name(url)) is closed\(code.map { " (code \($0))" } ?? "")"
        case .circuitOpen(let host, let until):
            "Circuit to \(host) is open after its recent failures: not sent; a probe is let through in \(Self.seconds(max(0, until.timeIntervalSinceNow)))"
        case .tooManyCalls(let host, let limit):
            "\(host) already has \(limit) call\(limit == 1 ? "" : "s") in flight and its queue is full: not sent"
        }
    }

    /// The description: `String(reflecting:)` is as safe to log as `String(describing:)`.
    public var debugDescription: String { description }

    static func name(_ url: URL?) -> String {
        url?.redactedDescription ?? "<no URL>"
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.2f s", value)
    }

    private static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return "\(error)" }
        return "\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))"
    }
}
