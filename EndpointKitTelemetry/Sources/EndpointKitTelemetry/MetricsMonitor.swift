import EndpointKit
import Foundation
import Metrics

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records every HTTP request as OpenTelemetry's HTTP client metrics, through swift-metrics.
///
/// Each attempt is one HTTP request (a retry is another), recorded when it ends:
/// - `http.client.request.duration`, a `Timer`: a backend gives it duration buckets (swift-otel:
///   `defaultDurationHistogramBuckets`, 5 ms to 10 s by default, exported in seconds), so its
///   percentiles are readable for calls of a few milliseconds;
/// - `http.client.request.body.size` and `http.client.response.body.size`, bytes (a `Recorder`
///   that aggregates); no response size for a streamed body (a `stream(_:)` call,
///   a generated OpenAPI client's calls), which is read after the attempt ends;
/// - `http.client.active_requests`, a `Meter` up while an attempt runs;
/// - `endpointkit.client.overload.decisions`, a `Counter` of what the client's overload policy
///   decided (retries refused, circuits opened, calls queued or refused, hedges), by decision.
///
/// Dimensions, few values each by construction (never a URL or a path): `http.request.method`
/// (`_OTHER` for a non-standard one), `server.address`, `server.port`, and when known
/// `http.response.status_code` and `error.type` (the status for 4xx and 5xx, else the kind of
/// failure: `timeout`, `cancelled`, `URLError(-1004)`…).
public struct MetricsMonitor: CallMonitor {
    private let fixedFactory: (any MetricsFactory)?

    /// Creates a monitor recording to `factory`. Without one, each record goes to the metrics
    /// system bootstrapped at that moment, so a client made before `MetricsSystem.bootstrap`
    /// (or `OTel.bootstrap`) still records once it is done.
    public init(factory: (any MetricsFactory)? = nil) {
        self.fixedFactory = factory
    }

    private var factory: any MetricsFactory { fixedFactory ?? MetricsSystem.factory }

    /// Counts the attempt as active.
    public func attemptStarted(_ event: AttemptStarted) {
        Meter(label: "http.client.active_requests", dimensions: Self.server(event.request), factory: factory).increment()
    }

    /// Records the attempt's duration and sizes, and counts it as no longer active.
    public func attemptFinished(_ event: AttemptFinished) {
        let factory = factory
        let server = Self.server(event.request)
        Meter(label: "http.client.active_requests", dimensions: server, factory: factory).decrement()
        var dimensions = server
        if let status = event.response?.statusCode { dimensions.append(("http.response.status_code", String(status))) }
        if let errorType = HTTPConventions.errorType(event.error, status: event.response?.statusCode) {
            dimensions.append(("error.type", errorType))
        }
        Timer(label: "http.client.request.duration", dimensions: dimensions, factory: factory).recordSeconds(event.duration)
        if let sent = event.bytesSent {
            Recorder(label: "http.client.request.body.size", dimensions: dimensions, aggregate: true, factory: factory).record(sent)
        }
        // A streamed body is read after the attempt ends: its size is not known then.
        if !event.bodyIsStreamed {
            Recorder(label: "http.client.response.body.size", dimensions: dimensions, aggregate: true, factory: factory)
                .record(event.bytesReceived)
        }
    }

    /// Counts the decision in `endpointkit.client.overload.decisions`, by `overload.decision`
    /// (``EndpointKit/OverloadDecision/Kind``'s raw value), `server.address` and `server.port`.
    public func overloadDecision(_ event: OverloadDecision) {
        let server = HTTPConventions.server(event.host)
        Counter(
            label: "endpointkit.client.overload.decisions",
            dimensions: [
                ("overload.decision", event.kind.rawValue), ("server.address", server.address), ("server.port", server.port),
            ], factory: factory
        ).increment()
    }

    private static func server(_ request: URLRequest) -> [(String, String)] {
        [
            ("http.request.method", HTTPConventions.method(request).name),
            ("server.address", HTTPConventions.address(request.url)), ("server.port", String(HTTPConventions.port(request.url))),
        ]
    }
}
