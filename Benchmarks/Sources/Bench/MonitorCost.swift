import AsyncHTTPClient
import EndpointKit
import EndpointKitAsyncHTTPClient
import EndpointKitTelemetry
import BenchSupport
import Foundation
import Logging
import Metrics
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What each EndpointKitTelemetry monitor costs a call: its events replayed in a tight loop
/// (µs per call, CPU of the monitor alone), and the heap allocations of whole calls with the
/// monitor attached (in a child process, as ``Allocations`` counts).
///
/// The backends do nothing, so the cost is EndpointKit's side, not a backend's: a log handler
/// at `.debug` that drops each line (so every line is built), swift-metrics' no-op factory and
/// the no-op tracer.
enum MonitorCost {
    static let monitors: [(String, any CallMonitor)] = {
        var logger = Logger(label: "bench", factory: { _ in DroppingLogHandler() })
        logger.logLevel = .debug
        return [
            ("LoggingMonitor", LoggingMonitor(logger: logger)), ("MetricsMonitor", MetricsMonitor()),
            ("TracingMonitor", TracingMonitor(tracer: NoOpTracer())),
        ]
    }()

    /// The allocation contenders: the AsyncHTTPClient-backed client with each monitor.
    static func contenders(baseURL: URL, httpClient: HTTPClient) -> [Latency.Contender] {
        monitors.map { name, monitor in
            let client = AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient, monitors: [monitor])
            return Latency.Contender(name: "AsyncHTTPClientClient + \(name)") { path in
                let data = try await client.request(RawBytes(path: path))
                precondition(!data.isEmpty)
            }
        }
    }

    static func run(baseURL: URL) throws {
        print("\nCost per call of each telemetry monitor (its events replayed 100,000 times; allocations of whole calls in a child)")
        print("  monitor                      µs/call   mallocs/call (whole GET, vs no monitor)")
        let (none, _) = try Allocations.count("AsyncHTTPClientClient async", baseURL: baseURL) ?? (0, 0)
        for (name, monitor) in monitors {
            let micros = replay(monitor, times: 100_000)
            let mallocs = try Allocations.count("AsyncHTTPClientClient + \(name)", baseURL: baseURL)
            let extra = mallocs.map { String(format: "%8.0f  (%+.0f)", $0.0, $0.0 - none) } ?? "  failed"
            print("  " + name.padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%9.2f", micros) + "   " + extra)
        }
    }

    /// Microseconds per call of `monitor`'s events for one successful GET.
    private static func replay(_ monitor: any CallMonitor, times: Int) -> Double {
        guard let url = URL(string: "http://127.0.0.1:8080/books/1?page=2"),
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Length": "57"])
        else { return .nan }
        let request = URLRequest(url: url)
        let call = CallContext(id: UUID(), startedAt: Date(), attempt: 1, endpointType: RawBytes.self)
        let started = AttemptStarted(call: call, request: request)
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<times {
            monitor.callStarted(CallStarted(call: call, request: request))
            monitor.attemptStarted(started)
            _ = monitor.headers(for: started)
            monitor.attemptFinished(
                AttemptFinished(
                    call: call, request: request, response: response, error: nil, bytesSent: 0, bytesReceived: 57, duration: 0.0003))
            monitor.callFinished(
                CallFinished(
                    call: call, request: request, response: response, body: nil, error: nil, duration: 0.0003, bytesSent: 0,
                    bytesReceived: 57))
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(times)
    }
}

/// Takes every line at its level and drops it: what a log handler costs at least.
struct DroppingLogHandler: LogHandler {
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {}
}
