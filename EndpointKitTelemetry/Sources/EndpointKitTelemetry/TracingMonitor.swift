@_spi(Locking) import EndpointKit
import Foundation
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Traces every call with swift-distributed-tracing: one client span per call, a child of the
/// caller's task-local `ServiceContext`, whose context goes to the server in every request the
/// call sends (through the tracer's `inject`: W3C `traceparent` and `tracestate` with an
/// OpenTelemetry tracer), retries and redirects included.
///
/// The span follows OpenTelemetry's HTTP client conventions. It is named for the method
/// (`GET`), or `HTTP` for a method outside the standard nine (then `http.request.method` is
/// `_OTHER` and `http.request.method_original` is the method sent). Its attributes:
/// `http.request.method`, `server.address`, `server.port`, `url.full` (credentials as
/// `REDACTED:REDACTED@`, query values `REDACTED`: `URL.redactedDescription`),
/// `http.response.status_code`, `http.request.resend_count` when any request was sent again
/// (each retry and each redirect followed counts one), and `error.type` with an error status
/// when the call failed (a 4xx or 5xx, a transport failure, a timeout, a cancellation), the
/// error recorded on the span (its description names no secret); and `endpointkit.endpoint`,
/// the call's ``EndpointKit/CallContext/endpoint`` (the endpoint's type name, or its
/// `callName`, such as an OpenAPI operation ID). For a redirected call,
/// `url.full`, `server.address` and `server.port` name the last request sent, the one whose
/// answer `http.response.status_code` gives, as ``LoggingMonitor`` does.
///
/// Attempts are not spans of their own: each failed attempt that is retried is a span event
/// (`http.attempt.failed`, with `http.attempt`, `http.retry.delay` in seconds, and the
/// attempt's `http.response.status_code` and `error.type` when known), and each redirect
/// followed is one (`http.redirect`, with the status and the next URL, redacted).
///
/// With `AsyncHTTPClientClient`, AsyncHTTPClient's own request spans would be a second span
/// for the same request: the client's own `HTTPClient` has them off, and a borrowed one should
/// too (`configuration.tracing.tracer = nil`).
public final class TracingMonitor: CallMonitor {
    /// A call's span, the tracer that started it, and how many requests it sent again.
    private struct CallSpan {
        let span: any Span
        let tracer: any Tracer
        var redirects = 0
    }

    private let fixedTracer: (any Tracer)?
    private let spans = Locked<[UUID: CallSpan]>([:])

    /// Creates a monitor starting spans with `tracer`. Without one, each call's span is started
    /// with the tracer bootstrapped when the call starts, so a client made before
    /// `InstrumentationSystem.bootstrap` (or `OTel.bootstrap`) still traces once it is done.
    public init(tracer: (any Tracer)? = nil) {
        self.fixedTracer = tracer
    }

    /// Starts the call's span, under the caller's `ServiceContext`.
    public func callStarted(_ event: CallStarted) {
        let tracer = fixedTracer ?? InstrumentationSystem.tracer
        let method = HTTPConventions.method(event.request)
        let span = tracer.startSpan(method.original == nil ? method.name : "HTTP", context: ServiceContext.current ?? .topLevel, ofKind: .client)
        span.attributes["http.request.method"] = method.name
        if let original = method.original { span.attributes["http.request.method_original"] = original }
        // The operation, as OpenTelemetry's RPC and GraphQL conventions name it: the endpoint.
        span.attributes["endpointkit.endpoint"] = event.call.endpoint
        Self.describeTarget(event.request?.url, on: span)
        spans.withLock { $0[event.call.id] = CallSpan(span: span, tracer: tracer) }
    }

    /// The span's context, injected by the tracer into the attempt's header fields.
    public func headers(for attempt: AttemptStarted) -> [(name: String, value: String)] {
        guard let call = spans.withLock({ $0[attempt.call.id] }) else { return [] }
        var fields: [(name: String, value: String)] = []
        call.tracer.inject(call.span.context, into: &fields, using: HeaderInjector())
        return fields
    }

    /// Adds a redirect event, and counts the request sent again.
    public func redirectFollowed(_ event: RedirectFollowed) {
        let span = spans.withLock { spans -> (any Span)? in
            spans[event.call.id]?.redirects += 1
            return spans[event.call.id]?.span
        }
        span?.addEvent(
            SpanEvent(name: "http.redirect", attributes: [
                "http.response.status_code": .int64(Int64(event.response.statusCode)),
                "url.full": .string(HTTPConventions.redacted(event.request.url)),
            ]))
    }

    /// Adds a failed-attempt event.
    public func retryScheduled(_ event: RetryScheduled) {
        var attributes: SpanAttributes = [
            "http.attempt": .int64(Int64(event.call.attempt)), "http.retry.delay": .double(event.delay),
        ]
        if let status = event.response?.statusCode { attributes["http.response.status_code"] = status }
        if let type = HTTPConventions.errorType(event.reason, status: event.response?.statusCode) { attributes["error.type"] = type }
        spans.withLock { $0[event.call.id]?.span }?.addEvent(SpanEvent(name: "http.attempt.failed", attributes: attributes))
    }

    /// Adds an `endpointkit.overload` event to the call's span: `overload.decision` (the
    /// kind's raw value), `server.address`, `server.port`, and `overload.seconds` when the
    /// decision involves a time.
    public func overloadDecision(_ event: OverloadDecision) {
        guard let call = event.call else { return }
        let server = HTTPConventions.server(event.host)
        var attributes: SpanAttributes = [
            "overload.decision": .string(event.kind.rawValue), "server.address": .string(server.address),
        ]
        if let port = Int(server.port) { attributes["server.port"] = port }
        if let seconds = event.seconds { attributes["overload.seconds"] = seconds }
        spans.withLock { $0[call.id]?.span }?.addEvent(SpanEvent(name: "endpointkit.overload", attributes: attributes))
    }

    /// Ends the call's span with its outcome.
    public func callFinished(_ event: CallFinished) {
        guard let call = spans.withLock({ $0.removeValue(forKey: event.call.id) }) else { return }
        let span = call.span
        if let url = event.request?.url { Self.describeTarget(url, on: span) }
        if let status = event.response?.statusCode { span.attributes["http.response.status_code"] = status }
        let resent = event.call.attempt - 1 + call.redirects
        if resent > 0 { span.attributes["http.request.resend_count"] = resent }
        if let type = HTTPConventions.errorType(event.error, status: event.response?.statusCode) {
            span.attributes["error.type"] = type
            if let error = event.error { span.recordError(error) }
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }

    private static func describeTarget(_ url: URL?, on span: any Span) {
        span.attributes["server.address"] = HTTPConventions.address(url)
        span.attributes["server.port"] = HTTPConventions.port(url)
        span.attributes["url.full"] = HTTPConventions.redacted(url)
    }
}
