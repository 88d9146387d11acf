import EndpointKit
import EndpointKitAsyncHTTPClient
import EndpointKitTelemetry
import Foundation
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import Tracing
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Logs, metrics and traces of real calls against the in-process server, with both clients.
final class TelemetryTests: XCTestCase {
    /// The process's tracer, bootstrapped once: AsyncHTTPClient would make its own spans with it.
    static let tracer: InMemoryTracer = {
        let tracer = InMemoryTracer()
        InstrumentationSystem.bootstrap(tracer)
        return tracer
    }()

    typealias MakeClient = @Sendable (URL, [any CallMonitor]) -> any Client

    static let clients: [(String, MakeClient)] = [
        ("URLSessionClient", { URLSessionClient(baseURL: $0, monitors: $1, retryPolicy: .fast, timeout: 0.5) }),
        ("AsyncHTTPClientClient", { AsyncHTTPClientClient(baseURL: $0, monitors: $1, retryPolicy: .fast, timeout: 0.5) }),
    ]

    /// The calls every test makes, as the issue lists them: a success, a 500 retried twice then
    /// a 200, a redirect, a timeout, a cancellation, an upload and a download.
    static func makeCalls(_ client: any Client, server: TestServer) async {
        _ = try? await client.request(EchoEndpoint(
            path: "echo", query: [.init(name: "token", value: "query-secret")],
            headers: ["Authorization": "Bearer header-secret", "X-Api-Key": "key-secret"]))
        _ = try? await client.request(AttemptEndpoint(path: "flaky?fail=2&status=500"))
        _ = try? await client.request(EchoEndpoint(path: "redirect", query: [.init(name: "status", value: "302")]))
        _ = try? await client.request(AttemptEndpoint(path: "stall-body", retryPolicy: RetryPolicy.none))
        let slow = Task { try await client.request(SlowEndpoint(seconds: 10)) }
        _ = await waitUntil(timeout: 5) { server.requests.contains { $0.path == "/slow" } }
        slow.cancel()
        _ = await slow.result
        _ = try? await client.upload(Upload(body: .data(Data(count: 50_000))))
        if let file = try? await client.download(Download(count: 200_000)) { try? FileManager.default.removeItem(at: file) }
    }

    func run(_ monitors: [any CallMonitor], with makeClient: MakeClient, inside caller: (any Span)? = nil) async throws -> TestServer {
        let server = try await TestServer.start(FaultRoutes().handler)
        let client = makeClient(server.baseURL, monitors)
        if let caller {
            await ServiceContext.withValue(caller.context) { await Self.makeCalls(client, server: server) }
        } else {
            await Self.makeCalls(client, server: server)
        }
        try await client.shutdown()
        await server.shutdown()
        return server
    }

    func testOneSpanPerCallUnderTheCallersSpanAndItsContextSentWithEveryRequest() async throws {
        let tracer = Self.tracer
        for (name, makeClient) in Self.clients {
            tracer.clearAll()
            let caller = tracer.startSpan("caller", context: .topLevel)
            let server = try await run([TracingMonitor(tracer: tracer)], with: makeClient, inside: caller)
            caller.end()
            let spans = tracer.finishedSpans.filter { $0.operationName != "caller" }
            // One span per call, and no other (AsyncHTTPClient's own are off).
            XCTAssertEqual(spans.map(\.operationName), ["GET", "GET", "GET", "GET", "GET", "POST", "GET"], name)
            XCTAssertTrue(spans.allSatisfy { $0.traceID == caller.context.inMemorySpanContext?.traceID }, name)
            XCTAssertTrue(spans.allSatisfy { $0.parentSpanID == caller.context.inMemorySpanContext?.spanID }, name)
            XCTAssertTrue(spans.allSatisfy { $0.kind == .client }, name)
            guard spans.count == 7 else { continue }
            let (echo, flaky, redirect, stalled, cancelled, upload, download) = (spans[0], spans[1], spans[2], spans[3], spans[4], spans[5], spans[6])
            XCTAssertEqual(echo.attributes["http.response.status_code"]?.toSpanAttribute(), 200, name)
            XCTAssertEqual(echo.attributes["server.address"]?.toSpanAttribute(), "127.0.0.1", name)
            XCTAssertEqual(echo.attributes["server.port"]?.toSpanAttribute(), .int64(Int64(server.port)), name)
            XCTAssertEqual(echo.attributes["url.full"]?.toSpanAttribute(), .string("\(server.baseURL)/echo?token=REDACTED"), name)
            XCTAssertNil(echo.status, name)
            XCTAssertEqual(flaky.attributes["http.request.resend_count"]?.toSpanAttribute(), 2, name)
            XCTAssertEqual(flaky.events.map(\.name), ["http.attempt.failed", "http.attempt.failed"], name)
            XCTAssertEqual(flaky.events.first?.attributes["http.response.status_code"]?.toSpanAttribute(), 500, name)
            XCTAssertEqual(redirect.events.map(\.name), ["http.redirect"], name)
            XCTAssertEqual(stalled.status?.code, .error, name)
            XCTAssertEqual(stalled.attributes["error.type"]?.toSpanAttribute(), "timeout", name)
            XCTAssertEqual(cancelled.attributes["error.type"]?.toSpanAttribute(), "cancelled", name)
            XCTAssertEqual(upload.attributes["http.response.status_code"]?.toSpanAttribute(), 200, name)
            XCTAssertEqual(download.attributes["http.response.status_code"]?.toSpanAttribute(), 200, name)
            // Every request carried its call's span context: the three flaky attempts, the
            // redirect and the request it led to included.
            for request in server.requests {
                XCTAssertEqual(request.header(InMemoryTracer.traceIDKey), caller.context.inMemorySpanContext?.traceID, "\(name) \(request.uri)")
                XCTAssertTrue(spans.contains { $0.spanID == request.header(InMemoryTracer.spanIDKey) }, "\(name) \(request.uri)")
            }
            let flakySpanRequests = server.requests.filter { $0.header(InMemoryTracer.spanIDKey) == flaky.spanID }
            XCTAssertEqual(flakySpanRequests.count, 3, name)
            XCTAssertEqual(server.requests.filter { $0.header(InMemoryTracer.spanIDKey) == redirect.spanID }.map(\.path), ["/redirect", "/echo"], name)
        }
    }

    func testMetricsFollowOpenTelemetrysHTTPClientConventions() async throws {
        for (name, makeClient) in Self.clients {
            let metrics = TestMetrics()
            let server = try await run([MetricsMonitor(factory: metrics)], with: makeClient)
            let port = String(server.port)
            func durations(_ dimensions: [(String, String)]) -> [Int64] {
                let all = [("http.request.method", dimensions[0].1), ("server.address", "127.0.0.1"), ("server.port", port)] + dimensions.dropFirst()
                return metrics.timers(label: "http.client.request.duration", dimensions: all).flatMap { $0.values }
            }
            XCTAssertEqual(durations([("", "GET"), ("http.response.status_code", "200")]).count, 4, "\(name): echo, flaky's last, redirect's, download")
            XCTAssertEqual(durations([("", "GET"), ("http.response.status_code", "500"), ("error.type", "500")]).count, 2, name)
            XCTAssertEqual(durations([("", "GET"), ("error.type", "timeout")]).count, 1, name)
            XCTAssertEqual(durations([("", "GET"), ("error.type", "cancelled")]).count, 1, name)
            XCTAssertEqual(durations([("", "POST"), ("http.response.status_code", "200")]).count, 1, name)
            // A Timer, so a backend gives it duration buckets: nanoseconds here, seconds in OTLP.
            let seconds = metrics.timers(label: "http.client.request.duration").flatMap(\.values).map { Double($0) / 1e9 }
            XCTAssertTrue(!seconds.isEmpty && seconds.allSatisfy { $0 > 0 && $0 < 5 }, "\(name): \(seconds)")
            XCTAssertTrue(metrics.recorders(label: "http.client.request.duration").isEmpty, name)
            let sent = metrics.recorders(label: "http.client.request.body.size").flatMap(\.values)
            XCTAssertTrue(sent.contains(50_000), "\(name): \(sent)")
            let received = metrics.recorders(label: "http.client.response.body.size").flatMap(\.values)
            XCTAssertTrue(received.contains(200_000), "\(name): \(received)")
            let active = metrics.meters(label: "http.client.active_requests")
            XCTAssertFalse(active.isEmpty, name)
            XCTAssertTrue(active.allSatisfy { $0.lastValue == 0 }, "\(name): every attempt ended")
            // Low cardinality: no dimension holds a URL or a path.
            let values = (metrics.recorders.flatMap(\.dimensions) + metrics.meters.flatMap(\.dimensions) + metrics.timers.flatMap(\.dimensions)).map(\.1)
            XCTAssertFalse(values.contains { $0.contains("/") }, "\(name): \(values)")
        }
    }

    func testOneLinePerCallAtDebugFailuresLouderAndSecretsNeverLogged() async throws {
        for (name, makeClient) in Self.clients {
            let handler = InMemoryLogHandler()
            var logger = Logger(label: "test", factory: { _ in handler })
            logger.logLevel = .trace
            let monitor = LoggingMonitor(logger: logger, logsBodies: true, redactedHeaders: ["X-Api-Key"])
            _ = try await run([monitor], with: makeClient)
            let lines = handler.entries.filter { !$0.message.description.hasSuffix("heads and bodies") }
            XCTAssertEqual(
                lines.map(\.level), [.debug, .notice, .notice, .debug, .debug, .error, .debug, .debug, .debug], "\(name): \(lines.map(\.message))")
            let first = lines.first
            XCTAssertTrue(first?.message.description.hasSuffix("/echo?token=REDACTED → 200") ?? false, "\(name): \(String(describing: first?.message))")
            for key in ["call.id", "call.attempt", "http.request.method", "url.full", "http.response.status_code", "duration_ms", "bytes.sent", "bytes.received"] {
                XCTAssertNotNil(first?.metadata[key], "\(name): \(key)")
            }
            XCTAssertEqual(lines.last(where: { $0.level == .error })?.metadata["error"].map { "\($0)".contains("timed out") }, true, name)
            // The echo route's body repeats the request's head: that is the server's data, and
            // the only place the secrets may appear.
            let everything = handler.entries.map { entry in
                "\(entry.message) \(entry.metadata.filter { $0.key != "response.body" })"
            }.joined(separator: "\n")
            XCTAssertTrue(handler.entries.contains { $0.metadata["response.body"].map { "\($0)".contains("header-secret") } ?? false }, name)
            XCTAssertTrue(everything.contains("Authorization: REDACTED"), name)
            for secret in ["header-secret", "key-secret", "query-secret"] {
                XCTAssertFalse(everything.contains(secret), "\(name): \(secret) was logged")
            }
        }
    }

    func testEachCallsCacheOutcomeIsLogged() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test", factory: { _ in handler })
        logger.logLevel = .debug
        let server = try await TestServer.start(FaultRoutes().handler)
        let client = URLSessionClient(baseURL: server.baseURL, monitors: [LoggingMonitor(logger: logger)], cache: HTTPCache())
        let resource = CachedResource(["key": "logged", "cc": "max-age=60"])
        _ = try await client.request(resource)
        _ = try await client.request(resource)
        _ = try await client.request(CachedResourceHead(method: .post, query: resource.query))
        XCTAssertEqual(handler.entries.map { $0.metadata["cache"].map { "\($0)" } }, ["miss", "hit", nil])
        client.invalidate()
        await server.shutdown()
    }
}
