import EndpointKitAsyncHTTPClient
import Foundation

/// Two contenders in short alternating phases (A B B A …), each phase's requests and CPU time
/// counted on its own, and each pair of neighbouring phases compared: a shared VM's speed
/// drifts by up to 2x within a minute, which swamps a ratio of two runs seconds apart, but
/// hardly moves within a pair a quarter of a second long. Prints the median and quartiles of
/// the pairs' ratios (B over A): throughput, and CPU time per request; and each contender's
/// user and system time and context switches a request, which say where a difference lies.
enum Paired {
    static func run(_ first: String, _ second: String, baseURL: URL, seconds: Double, concurrency: Int, phase: Double = 0.25) async throws {
        // Each contender has an HTTPClient of its own, as two services would: a shared one
        // hands each phase the connections the other left, on the event loops it chose. (At 1
        // in flight AsyncHTTPClientClient, which sends a lone request on one event loop,
        // found the other's connections spread over both: +20 % CPU a request against raw,
        // where with a client each it is -4 %.)
        let httpClients = [Latency.hammerHTTPClient(), Latency.hammerHTTPClient()]
        let found = zip([first, second], httpClients).map { name, httpClient in
            Latency.named(
                name, baseURL: baseURL, httpClient: httpClient, ahcClient: AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient))
        }
        guard let a = found[0], let b = found[1] else { return print("no client named \(first) or \(second)") }
        let contenders = [a, b]
        let path = Latency.profiledPath
        for contender in contenders { _ = try await phaseFigures(contender, path: path, concurrency: concurrency, seconds: 0.5) }
        var rates: [Double] = []
        var costs: [Double] = []
        var sums = [Figures(), Figures()]
        for pair in 0..<max(1, Int(seconds / phase)) {
            var figures = sums
            for index in pair % 2 == 0 ? [0, 1] : [1, 0] {
                figures[index] = try await phaseFigures(contenders[index], path: path, concurrency: concurrency, seconds: phase)
            }
            let (x, y) = (figures[0], figures[1])
            guard x.requests > 0, y.requests > 0 else { continue }
            rates.append(y.requests / x.requests)
            costs.append((y.cpu / y.requests) / (x.cpu / x.requests))
            for index in sums.indices { sums[index].add(figures[index]) }
        }
        func quartiles(_ values: [Double]) -> String {
            let sorted = values.sorted()
            let at = { (p: Double) in sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))] }
            return String(format: "%.3f (quartiles %.3f–%.3f)", at(0.5), at(0.25), at(0.75))
        }
        print("\(rates.count) pairs of \(phase) s phases, \(concurrency) in flight, \(path)")
        for (contender, sum) in zip(contenders, sums) {
            print(String(format: "  %@: %.0f req/s, %.1f µs CPU per request (user %.1f, system %.1f), context switches per request %.2f voluntary, %.2f involuntary", contender.name, sum.requests / (phase * Double(rates.count)), sum.cpu / sum.requests * 1e6, sum.user / sum.requests * 1e6, sum.system / sum.requests * 1e6, sum.voluntary / sum.requests, sum.involuntary / sum.requests))
        }
        print("  throughput, second over first: " + quartiles(rates))
        print("  CPU per request, second over first: " + quartiles(costs))
        for client in httpClients { try await client.shutdown() }
    }

    /// Requests completed, and CPU seconds and context switches of this process, in a phase or
    /// over a run.
    struct Figures {
        var requests: Double = 0
        var user: Double = 0
        var system: Double = 0
        var voluntary: Double = 0
        var involuntary: Double = 0
        var cpu: Double { user + system }

        mutating func add(_ other: Figures) {
            requests += other.requests
            user += other.user
            system += other.system
            voluntary += other.voluntary
            involuntary += other.involuntary
        }
    }

    /// Requests completed and CPU seconds this process spent in one phase of `seconds`.
    private static func phaseFigures(_ contender: Latency.Contender, path: String, concurrency: Int, seconds: Double) async throws -> Figures {
        let before = processUsage()
        let cell = try await Latency.measure(contender, path: path, concurrency: concurrency, seconds: seconds)
        let after = processUsage()
        return Figures(
            requests: cell.requestsPerSecond * seconds, user: after.user - before.user, system: after.system - before.system,
            voluntary: after.voluntary - before.voluntary, involuntary: after.involuntary - before.involuntary)
    }
}
