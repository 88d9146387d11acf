import EndpointKit
import EndpointKitTelemetry
import Foundation
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import Tracing
import XCTest

@testable import CoreMetrics
@testable import Instrumentation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// OpenTelemetry's HTTP client conventions where a call is out of the ordinary: a method outside
/// the standard set, redirects, credentials in the URL; and monitors made before the process
/// bootstraps its telemetry.
final class ConventionsTests: XCTestCase {
    struct Probe {
        let handler = InMemoryLogHandler()
        let tracer = InMemoryTracer()
        let metrics = TestMetrics()

        var monitors: [any CallMonitor] {
            var logger = Logger(label: "conventions", factory: { _ in handler })
            logger.logLevel = .debug
            return [LoggingMonitor(logger: logger), TracingMonitor(tracer: tracer), MetricsMonitor(factory: metrics)]
        }
    }

    func withServer(_ body: (TestServer, URL) async throws -> Void) async throws {
        let server = try await TestServer.start(FaultRoutes().handler)
        let credentialed = try XCTUnwrap(URL(string: "http://s3cr3t-user:s3cr3t-pass@127.0.0.1:\(server.port)"))
        try await body(server, credentialed)
        await server.shutdown()
    }

    func testAMethodOutsideTheStandardSetIsOther() async throws {
        for (name, makeClient) in TelemetryTests.clients {
            let probe = Probe()
            try await withServer { server, _ in
                let client = makeClient(server.baseURL, probe.monitors)
                _ = try await client.request(EchoEndpoint(method: HTTPMethod("PROPFIND")))
                try await client.shutdown()
            }
            let span = try XCTUnwrap(probe.tracer.finishedSpans.first, name)
            XCTAssertEqual(span.operationName, "HTTP", name)
            XCTAssertEqual(span.attributes["http.request.method"]?.toSpanAttribute(), "_OTHER", name)
            XCTAssertEqual(span.attributes["http.request.method_original"]?.toSpanAttribute(), "PROPFIND", name)
            XCTAssertEqual(probe.metrics.timers(label: "http.client.request.duration").first?.dimensions.first?.1, "_OTHER", name)
            let line = try XCTUnwrap(probe.handler.entries.first, name)
            XCTAssertEqual(line.metadata["http.request.method"].map { "\($0)" }, "_OTHER", name)
            XCTAssertEqual(line.metadata["http.request.method_original"].map { "\($0)" }, "PROPFIND", name)
            XCTAssertTrue(line.message.description.hasPrefix("PROPFIND "), "\(name): \(line.message)")
        }
    }

    /// A retry's wait too long for an `Int` of milliseconds (a retrier may ask for any, and
    /// `maximumRetryAfter: .infinity` lets a server's `Retry-After: 1e300` through) is logged,
    /// not a crash.
    func testAWaitTooLongToCountIsLogged() throws {
        let probe = Probe()
        let logger = try XCTUnwrap(probe.monitors.first as? LoggingMonitor)
        let request = URLRequest(url: try XCTUnwrap(URL(string: "http://127.0.0.1:1/books")))
        let call = CallContext(id: UUID(), startedAt: Date(), attempt: 1, endpointType: PathEndpoint.self)
        for delay in [1e300, .infinity, 0.25] {
            logger.retryScheduled(RetryScheduled(call: call, delay: delay, reason: URLError(.timedOut), request: request, response: nil, body: nil))
        }
        let delays = probe.handler.entries.map { $0.metadata["retry.delay_ms"].map { "\($0)" } }
        XCTAssertEqual(delays, [String(Int.max), String(Int.max), "250"])
    }

    /// A streamed body is read after its call's events: no size is logged or recorded for it
    /// (not a size of 0), while the same body read whole is logged and recorded with its size.
    func testAStreamedBodyHasNoSizeInLogsOrMetrics() async throws {
        for (name, makeClient) in TelemetryTests.clients {
            let probe = Probe()
            var streamed = 0
            try await withServer { server, _ in
                let client = makeClient(server.baseURL, probe.monitors)
                let bytes = PathEndpoint(path: "bytes", query: [URLQueryItem(name: "count", value: "1000")])
                _ = try await client.request(bytes)
                for try await chunk in try await client.stream(bytes) { streamed += chunk.count }
                try await client.shutdown()
            }
            XCTAssertEqual(streamed, 1000, name)
            let sizes = probe.metrics.recorders(label: "http.client.response.body.size").flatMap(\.values)
            XCTAssertEqual(sizes, [1000], "\(name): the whole body's size, and none for the stream")
            let lines = probe.handler.entries.map { $0.metadata["bytes.received"].map { "\($0)" } }
            XCTAssertEqual(lines, ["1000", nil], name)
        }
    }

    /// Every request sent again counts, redirects included; logs and spans name the same URL
    /// for a redirected call (the last request's, whose answer the status is), with
    /// credentials as `REDACTED:REDACTED@`.
    func testRedirectsCountAsResendsAndLogsAndSpansNameTheSameURL() async throws {
        for (name, makeClient) in TelemetryTests.clients {
            let probe = Probe()
            var port = 0
            try await withServer { server, credentialed in
                port = server.port
                let client = makeClient(credentialed, probe.monitors)
                _ = try await client.request(EchoEndpoint(path: "redirect?status=302&to=%2Fecho%3Fk%3Ds3cr3t-query"))
                _ = try await client.request(PathEndpoint(path: "flaky?fail=1&status=500"))
                try await client.shutdown()
            }
            let spans = probe.tracer.finishedSpans
            XCTAssertEqual(spans.count, 2, name)
            guard spans.count == 2 else { continue }
            let final = "http://REDACTED:REDACTED@127.0.0.1:\(port)/echo?k=REDACTED"
            XCTAssertEqual(spans[0].attributes["http.request.resend_count"]?.toSpanAttribute(), 1, "\(name): a redirect is a resend")
            XCTAssertEqual(spans[0].attributes["url.full"]?.toSpanAttribute(), .string(final), name)
            XCTAssertEqual(spans[0].events.first?.attributes["url.full"]?.toSpanAttribute(), .string(final), name)
            XCTAssertEqual(spans[1].attributes["http.request.resend_count"]?.toSpanAttribute(), 1, "\(name): a retry is a resend")
            let lines = probe.handler.entries.filter { $0.level == .debug }
            XCTAssertEqual(lines.first?.metadata["url.full"].map { "\($0)" }, final, name)
            XCTAssertEqual(lines.first?.message.description, "GET \(final) → 200", name)
        }
    }

    /// A client is often made before `OTel.bootstrap` runs (or the monitors are made in a
    /// static): monitors made without a tracer or factory use whatever is bootstrapped when
    /// the call runs.
    func testMonitorsMadeBeforeTheBootstrapUseWhatIsBootstrappedWhenACallRuns() async throws {
        for (name, makeClient) in TelemetryTests.clients {
            let monitors: [any CallMonitor] = [TracingMonitor(), MetricsMonitor()]
            let tracer = InMemoryTracer()
            let metrics = TestMetrics()
            InstrumentationSystem.bootstrapInternal(tracer)
            MetricsSystem.bootstrapInternal(metrics)
            defer {
                InstrumentationSystem.bootstrapInternal(TelemetryTests.tracer)
                MetricsSystem.bootstrapInternal(NOOPMetricsHandler.instance)
            }
            try await withServer { server, _ in
                let client = makeClient(server.baseURL, monitors)
                _ = try await client.request(EchoEndpoint())
                try await client.shutdown()
            }
            XCTAssertEqual(tracer.finishedSpans.map(\.operationName), ["GET"], name)
            XCTAssertEqual(metrics.timers(label: "http.client.request.duration").flatMap(\.values).count, 1, name)
        }
    }
}
