import EndpointKitAsyncHTTPClient
import Foundation

/// Two contenders in short alternating phases (A B B A …), each phase's requests and CPU time
/// counted on its own, and each pair of neighbouring phases compared: a shared VM's speed
/// drifts by up to 2x within a minute, which swamps a ratio of two runs seconds apart, but
/// hardly moves within a pair a quarter of a second long. Prints the median and quartiles of
/// the pairs' ratios (B over A): throughput, and CPU time per request.
enum Paired {
    static func run(_ first: String, _ second: String, baseURL: URL, seconds: Double, concurrency: Int, phase: Double = 0.25) async throws {
        let httpClient = Latency.hammerHTTPClient()
        let ahcClient = AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient)
        guard let a = Latency.named(first, baseURL: baseURL, httpClient: httpClient, ahcClient: ahcClient),
            let b = Latency.named(second, baseURL: baseURL, httpClient: httpClient, ahcClient: ahcClient)
        else { return print("no client named \(first) or \(second)") }
        let contenders = [a, b]
        let path = Latency.profiledPath
        for contender in contenders { _ = try await phaseFigures(contender, path: path, concurrency: concurrency, seconds: 0.5) }
        var rates: [Double] = []
        var costs: [Double] = []
        var sums = [Figures(requests: 0, cpu: 0), Figures(requests: 0, cpu: 0)]
        for pair in 0..<max(1, Int(seconds / phase)) {
            var figures = sums
            for index in pair % 2 == 0 ? [0, 1] : [1, 0] {
                figures[index] = try await phaseFigures(contenders[index], path: path, concurrency: concurrency, seconds: phase)
            }
            let (x, y) = (figures[0], figures[1])
            guard x.requests > 0, y.requests > 0 else { continue }
            rates.append(y.requests / x.requests)
            costs.append((y.cpu / y.requests) / (x.cpu / x.requests))
            for index in sums.indices {
                sums[index].requests += figures[index].requests
                sums[index].cpu += figures[index].cpu
            }
        }
        func quartiles(_ values: [Double]) -> String {
            let sorted = values.sorted()
            let at = { (p: Double) in sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))] }
            return String(format: "%.3f (quartiles %.3f–%.3f)", at(0.5), at(0.25), at(0.75))
        }
        print("\(rates.count) pairs of \(phase) s phases, \(concurrency) in flight, \(path)")
        for (contender, sum) in zip(contenders, sums) {
            print(String(format: "  %@: %.0f req/s, %.1f µs CPU per request", contender.name, sum.requests / (phase * Double(rates.count)), sum.cpu / sum.requests * 1e6))
        }
        print("  throughput, second over first: " + quartiles(rates))
        print("  CPU per request, second over first: " + quartiles(costs))
        try await httpClient.shutdown()
    }

    /// Requests completed, and CPU seconds this process spent, in a phase or over a run.
    struct Figures {
        var requests: Double
        var cpu: Double
    }

    /// Requests completed and CPU seconds this process spent in one phase of `seconds`.
    private static func phaseFigures(_ contender: Latency.Contender, path: String, concurrency: Int, seconds: Double) async throws -> Figures {
        let before = processCPUSeconds()
        let cell = try await Latency.measure(contender, path: path, concurrency: concurrency, seconds: seconds)
        return Figures(requests: cell.requestsPerSecond * seconds, cpu: processCPUSeconds() - before)
    }
}
