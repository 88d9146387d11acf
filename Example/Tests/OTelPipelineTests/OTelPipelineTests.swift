import EndpointKit
import EndpointKitAsyncHTTPClient
import EndpointKitTelemetry
import Hummingbird
import Logging
import OTel
import ServiceLifecycle
import Synchronization
import Tracing
import XCTest

/// EndpointKitTelemetry through a real OpenTelemetry pipeline: swift-otel bootstrapped after
/// the clients were made, exporting over OTLP/HTTP (JSON) to a receiver in this process. What
/// reaches the receiver names no secret, a recorded error included (the caller's own
/// `withSpan` too), and the request duration has duration buckets in seconds.
final class OTelPipelineTests: XCTestCase {
    struct Failing: Endpoint {
        typealias Content = Void
        func makeRequest() throws -> URLRequest { try URLRequest(.get, "fail?api_key=s3cr3t-key") }
    }

    func testWhatIsExportedNamesNoSecretAndHasDurationBuckets() async throws {
        let received = Mutex<[String: [String]]>([:])
        let router = Router()
        router.get("fail") { _, _ in Response(status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: "s3cr3t-body"))) }
        for signal in ["traces", "metrics"] {
            router.post("v1/\(signal)") { request, _ -> Response in
                let body = try await request.body.collect(upTo: 1 << 24)
                received.withLock { $0[signal, default: []].append(String(buffer: body)) }
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
            }
        }
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { portContinuation.yield($0.localAddress?.port ?? 0); portContinuation.finish() },
            logger: Logger(label: "receiver", factory: { _ in SwiftLogNoOpLogHandler() }))
        let server = Task { try await app.run() }
        defer { server.cancel() }
        var portIterator = ports.makeAsyncIterator()
        let firstPort = await portIterator.next()
        let port = try XCTUnwrap(firstPort)
        let api = try XCTUnwrap(URL(string: "http://s3cr3t-user:s3cr3t-pass@127.0.0.1:\(port)"))

        // Made before the bootstrap, as a client in a `static let` would be.
        let clients: [any Client] = [
            URLSessionClient(baseURL: api, monitors: [TracingMonitor(), MetricsMonitor()]),
            AsyncHTTPClientClient(baseURL: api, monitors: [TracingMonitor(), MetricsMonitor()]),
        ]

        var config = OTel.Configuration.default
        config.serviceName = "otel-pipeline-test"
        config.logs.enabled = false
        config.diagnosticLogLevel = .error
        config.traces.otlpExporter.endpoint = "http://127.0.0.1:\(port)/v1/traces"
        config.traces.otlpExporter.protocol = .httpJSON
        config.traces.batchSpanProcessor.scheduleDelay = .milliseconds(50)
        config.metrics.otlpExporter.endpoint = "http://127.0.0.1:\(port)/v1/metrics"
        config.metrics.otlpExporter.protocol = .httpJSON
        config.metrics.exportInterval = .milliseconds(200)
        let observability = try OTel.bootstrap(configuration: config)
        let group = ServiceGroup(services: [observability], logger: Logger(label: "services", factory: { _ in SwiftLogNoOpLogHandler() }))
        let running = Task { try await group.run() }

        for client in clients {
            do {
                // The caller's own span records whatever is thrown through it, as a service's would.
                try await withSpan("caller") { _ in try await client.request(Failing()) }
                XCTFail("a 500 is an error")
            } catch {}
            try await client.shutdown()
        }
        // Spans go out at the next batch, metrics at the next interval: wait for both.
        for _ in 0..<100 {
            let done = received.withLock { state in
                (state["traces"] ?? []).joined().components(separatedBy: "\"caller\"").count > 2
                    && (state["metrics"] ?? []).joined().contains("http.client.request.duration")
            }
            if done { break }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        await group.triggerGracefulShutdown()
        _ = await running.result

        let traces = received.withLock { ($0["traces"] ?? []).joined(separator: "\n") }
        let metrics = received.withLock { ($0["metrics"] ?? []).joined(separator: "\n") }
        // Both client spans and both callers' spans, each with its error recorded.
        XCTAssertEqual(traces.components(separatedBy: "\"caller\"").count - 1, 2, traces)
        XCTAssertGreaterThanOrEqual(traces.components(separatedBy: "exception.message").count - 1, 4, traces)
        XCTAssertTrue(traces.contains("http://REDACTED:REDACTED@127.0.0.1:\(port)/fail?api_key=REDACTED"), traces)
        for secret in ["s3cr3t-user", "s3cr3t-pass", "s3cr3t-key", "s3cr3t-body"] {
            XCTAssertFalse(traces.contains(secret), "\(secret) exported in a span: \(traces)")
            XCTAssertFalse(metrics.contains(secret), "\(secret) exported in a metric")
        }
        // Duration buckets, in seconds: 5 ms is a bound, so a p99 of a few ms is readable.
        let duration = try XCTUnwrap(metrics.range(of: "http.client.request.duration"), metrics)
        let bounds = try XCTUnwrap(metrics[duration.upperBound...].range(of: "explicitBounds"), metrics)
        let list = metrics[bounds.upperBound...].prefix { $0 != "]" }
        XCTAssertTrue(list.contains("0.005"), "bounds: \(list)")
        print("OTLP export: \(traces.utf8.count) bytes of spans, \(metrics.utf8.count) bytes of metrics; duration bounds \(list)]")
    }
}
