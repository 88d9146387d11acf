import EndpointKit
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
/// The span is named for the method (`GET`), per OpenTelemetry's HTTP client conventions, with
/// `http.request.method`, `server.address`, `server.port`, `url.full` (query values and
/// credentials redacted), `http.response.status_code`, `http.request.resend_count` when
/// retried, and `error.type` with an error status when the call failed (a 4xx or 5xx, a
/// transport failure, a timeout, a cancellation). Attempts are not spans of their own: each
/// failed attempt that is retried is a span event (`http.attempt.failed`, with its number,
/// status and error type, and the delay before the next), and each redirect followed is one
/// (`http.redirect`, with the status and the next URL).
///
/// With `AsyncHTTPClientClient`, AsyncHTTPClient's own request spans would be a second span
/// for the same request: the client's own `HTTPClient` has them off, and a borrowed one should
/// too (`configuration.tracing.tracer = nil`).
public final class TracingMonitor: CallMonitor {
    private let tracer: any Tracer
    private let spans = Locked<[UUID: any Span]>([:])

    /// Creates a monitor starting spans with `tracer`; the bootstrapped one by default.
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
    }

    /// Starts the call's span, under the caller's `ServiceContext`.
    public func callStarted(_ event: CallStarted) {
        let method = event.request?.httpMethod ?? "GET"
        let span = tracer.startSpan(method, context: ServiceContext.current ?? .topLevel, ofKind: .client)
        let url = event.request?.url
        span.attributes["http.request.method"] = method
        span.attributes["server.address"] = HTTPConventions.address(url)
        span.attributes["server.port"] = HTTPConventions.port(url)
        span.attributes["url.full"] = HTTPConventions.redacted(url)
        spans.withLock { $0[event.call.id] = span }
    }

    /// The span's context, injected by the tracer into the attempt's header fields.
    public func headers(for attempt: AttemptStarted) -> [(name: String, value: String)] {
        guard let span = spans.withLock({ $0[attempt.call.id] }) else { return [] }
        var fields: [(name: String, value: String)] = []
        tracer.inject(span.context, into: &fields, using: HeaderInjector())
        return fields
    }

    /// Adds a redirect event.
    public func redirectFollowed(_ event: RedirectFollowed) {
        span(of: event.call)?.addEvent(
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
        span(of: event.call)?.addEvent(SpanEvent(name: "http.attempt.failed", attributes: attributes))
    }

    /// Ends the call's span with its outcome.
    public func callFinished(_ event: CallFinished) {
        guard let span = spans.withLock({ $0.removeValue(forKey: event.call.id) }) else { return }
        if let status = event.response?.statusCode { span.attributes["http.response.status_code"] = status }
        if event.call.attempt > 1 { span.attributes["http.request.resend_count"] = event.call.attempt - 1 }
        if let type = HTTPConventions.errorType(event.error, status: event.response?.statusCode) {
            span.attributes["error.type"] = type
            if let error = event.error { span.recordError(error) }
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }

    private func span(of call: CallContext) -> (any Span)? {
        spans.withLock { $0[call.id] }
    }
}
