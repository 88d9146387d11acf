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

/// Each decision of a client's overload policy is a log line, a count and an event on the
/// call's span.
final class OverloadTelemetryTests: XCTestCase {
    /// No retries allowed, and a circuit that opens after 2 failures of 2.
    static let policy = OverloadPolicy(
        retryBudget: RetryBudget(ratio: 0, minimumPerSecond: 0),
        circuitBreaker: CircuitBreaker(failureRatio: 0.5, minimumCalls: 2, openDuration: 60))

    static let clients: [(String, @Sendable (URL, [any CallMonitor]) -> any Client)] = [
        ("URLSessionClient", { URLSessionClient(baseURL: $0, monitors: $1, retryPolicy: .fast, overload: policy) }),
        ("AsyncHTTPClientClient", { AsyncHTTPClientClient(baseURL: $0, monitors: $1, retryPolicy: .fast, overload: policy) }),
    ]

    func testDecisionsAreLoggedCountedAndAddedToTheSpan() async throws {
        for (name, makeClient) in Self.clients {
            let handler = InMemoryLogHandler()
            var logger = Logger(label: "test", factory: { _ in handler })
            logger.logLevel = .debug
            let metrics = TestMetrics()
            let tracer = InMemoryTracer()
            let server = try await TestServer.start(FaultRoutes().handler)
            let client = makeClient(
                server.baseURL, [LoggingMonitor(logger: logger), MetricsMonitor(factory: metrics), TracingMonitor(tracer: tracer)])
            // Two failures: the first's retry is refused by the budget; the second opens the
            // circuit, which refuses its retry; the third call is refused by the circuit.
            for _ in 0..<3 {
                _ = try? await client.request(AttemptEndpoint(path: "flaky?key=down&fail=100"))
            }
            try await client.shutdown()
            await server.shutdown()

            let expected = ["retry_refused", "circuit_opened", "circuit_rejected", "circuit_rejected"]
            let logged = handler.entries.compactMap { $0.metadata["overload.decision"].map { "\($0)" } }
            XCTAssertEqual(logged.sorted(), expected.sorted(), name)
            let opened = handler.entries.first { $0.metadata["overload.decision"].map { "\($0)" } == "circuit_opened" }
            XCTAssertEqual(opened?.level, .warning, name)
            XCTAssertEqual(opened?.metadata["server.port"].map { "\($0)" }, String(server.port), name)
            XCTAssertNotNil(opened?.metadata["call.id"], name)

            for decision in Set(expected) {
                let counters = metrics.counters.filter { counter in
                    counter.label == "endpointkit.client.overload.decisions"
                        && counter.dimensions.contains { $0 == ("overload.decision", decision) }
                }
                let total = counters.reduce(0) { $0 + $1.totalValue }
                XCTAssertEqual(total, Int64(expected.filter { $0 == decision }.count), "\(name): \(decision)")
            }

            let events = tracer.finishedSpans.flatMap(\.events).filter { $0.name == "endpointkit.overload" }
            XCTAssertEqual(
                events.compactMap { event -> String? in
                    guard case .string(let value)? = event.attributes["overload.decision"]?.toSpanAttribute() else { return nil }
                    return value
                }.sorted(),
                expected.sorted(), name)
        }
    }
}
