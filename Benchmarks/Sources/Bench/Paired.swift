import AsyncHTTPClient
import EndpointKitAsyncHTTPClient
import Foundation

/// Two contenders in short alternating phases (A B B A …), each phase's requests and CPU time
/// counted on its own, and each pair of neighbouring phases compared: a shared VM's speed
/// drifts by up to 2x within a minute, which swamps a ratio of two runs seconds apart, but
/// hardly moves within a pair a quarter of a second long. Prints the median and quartiles of
/// the pairs' ratios (B over A): throughput, and CPU time per request.
enum Paired {
    static func run(_ first: String, _ second: String, baseURL: URL, seconds: Double, concurrency: Int, phase: Double = 0.25) async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let ahcClient = AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient)
        guard let a = Latency.named(first, baseURL: baseURL, httpClient: httpClient, ahcClient: ahcClient),
            let b = Latency.named(second, baseURL: baseURL, httpClient: httpClient, ahcClient: ahcClient)
        else { return print("no client named \(first) or \(second)") }
        let path = Latency.profiledPath
        _ = try await phaseFigures(a, path: path, concurrency: concurrency, seconds: 0.5)
        _ = try await phaseFigures(b, path: path, concurrency: concurrency, seconds: 0.5)
        var rates: [Double] = []
        var costs: [Double] = []
        var totals = (a: (0.0, 0.0), b: (0.0, 0.0))
        for pair in 0..<max(1, Int(seconds / phase)) {
            let order = pair % 2 == 0 ? [a, b] : [b, a]
            var figures: [String: (requests: Double, cpu: Double)] = [:]
            for contender in order {
                figures[contender.name] = try await phaseFigures(contender, path: path, concurrency: concurrency, seconds: phase)
            }
            guard let x = figures[a.name], let y = figures[b.name], x.requests > 0, y.requests > 0 else { continue }
            rates.append(y.requests / x.requests)
            costs.append((y.cpu / y.requests) / (x.cpu / x.requests))
            totals.a.0 += x.requests
            totals.a.1 += x.cpu
            totals.b.0 += y.requests
            totals.b.1 += y.cpu
        }
        func quartiles(_ values: [Double]) -> String {
            let sorted = values.sorted()
            let at = { (p: Double) in sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))] }
            return String(format: "%.3f (quartiles %.3f–%.3f)", at(0.5), at(0.25), at(0.75))
        }
        print("\(rates.count) pairs of \(phase) s phases, \(concurrency) in flight, \(path)")
        print(String(format: "  %@: %.0f req/s, %.1f µs CPU per request", a.name, totals.a.0 / (phase * Double(rates.count)), totals.a.1 / totals.a.0 * 1e6))
        print(String(format: "  %@: %.0f req/s, %.1f µs CPU per request", b.name, totals.b.0 / (phase * Double(rates.count)), totals.b.1 / totals.b.0 * 1e6))
        print("  throughput, second over first: " + quartiles(rates))
        print("  CPU per request, second over first: " + quartiles(costs))
        try await httpClient.shutdown()
    }

    /// Requests completed and CPU seconds this process spent in one phase of `seconds`.
    private static func phaseFigures(_ contender: Latency.Contender, path: String, concurrency: Int, seconds: Double) async throws -> (requests: Double, cpu: Double) {
        let before = processCPUSeconds()
        let cell = try await Latency.measure(contender, path: path, concurrency: concurrency, seconds: seconds)
        return (cell.requestsPerSecond * seconds, processCPUSeconds() - before)
    }
}
