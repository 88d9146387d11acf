import AsyncHTTPClient
@_spi(Locking) import EndpointKit
import EndpointKitAsyncHTTPClient
import BenchSupport
import Foundation

/// `Bench overload`: a fleet on one machine. Several client processes call one faulty
/// dependency (``FaultyServer``) with and without each defence of ``OverloadPolicy``; the
/// table says what reached the dependency and what the callers saw.
enum Overload {
    static let processes = 8

    /// One row: a scenario and the policy its clients use.
    struct Row {
        let scenario: String
        let defence: String
    }

    static let retryPolicy = RetryPolicy(maximumAttempts: 3, initialDelay: 0.05, maximumDelay: 0.2)

    static func policy(_ defence: String) -> OverloadPolicy {
        switch defence {
        case "none": .none
        case "budget": .default
        case "breaker": OverloadPolicy(circuitBreaker: CircuitBreaker(openDuration: 1))
        case "hedge-fixed": OverloadPolicy(hedging: HedgingPolicy(delay: .fixed(0.05)))
        case "hedge-p95": OverloadPolicy(hedging: HedgingPolicy(delay: .percentile(0.95, minimum: 0.005)))
        case "limit": OverloadPolicy(concurrencyLimit: ConcurrencyLimit(maximumInFlight: FaultyServer.capacity))
        default: .default
        }
    }

    static func run(seconds: Double) async throws {
        let server = try await FaultyServer.start()
        defer { Task { await server.stop() } }
        print("\nOverload: \(processes) client processes (AsyncHTTPClientClient, 3 attempts, 8 calls in flight each, one every 50 ms per loop) against one dependency")

        print("\n  Dependency dead (503) for \(Int(seconds)) s, then back for 3 s; requests and calls while it was dead")
        print("  defence            calls   requests   requests/call   failed   p99 to fail (ms)   first success after recovery (s)")
        for defence in ["none", "budget", "breaker"] {
            let recoveryAt = DispatchTime.now().uptimeNanoseconds + UInt64((seconds + 0.5) * 1e9)
            server.state.withLock { $0.downUntil = recoveryAt }
            let reports = try await fleet("dead", defence: defence, url: server.baseURL, seconds: seconds + 3, recoveryAt: recoveryAt)
            let requests = server.takeCount("/dead")
            let calls = reports.reduce(0) { $0 + $1.calls }
            let failed = reports.reduce(0) { $0 + $1.failed }
            let p99 = reports.map(\.failP99).max() ?? 0
            let recovery = reports.compactMap(\.recovery).max()
            print("  " + defence.padding(toLength: 16, withPad: " ", startingAt: 0)
                + String(format: "%8d %10d %15.2f %8d %18.2f %34@", calls, requests, Double(requests) / Double(max(calls, 1)), failed, p99 * 1000,
                    recovery.map { String(format: "%.2f", $0) } ?? "none"))
        }
        print("  (p99 to fail: with the breaker, of the calls its open circuit refused at their first attempt; otherwise of every failed call)")

        print("\n  Slow tail: 1 answer in 20 held back 500 ms")
        print("  defence            calls   requests   extra load   p50 (ms)   p99 (ms)   goal for p99: delay + 2 × p50 (ms)")
        for defence in ["none", "hedge-fixed", "hedge-p95"] {
            let reports = try await fleet("tail", defence: defence, url: server.baseURL, seconds: seconds)
            let requests = server.takeCount("/tail")
            let calls = reports.reduce(0) { $0 + $1.calls }
            // Percentiles of every call of every process.
            let all = reports.flatMap(\.latencies).sorted()
            let p50 = all.isEmpty ? 0 : all[all.count / 2]
            let p99 = all.isEmpty ? 0 : all[min(all.count - 1, all.count * 99 / 100)]
            let goal = defence == "hedge-fixed" ? String(format: "%.1f", 50 + 2 * p50 * 1000) : ""
            print("  " + defence.padding(toLength: 16, withPad: " ", startingAt: 0)
                + String(format: "%8d %10d %11.1f%% %10.1f %10.1f %38@", calls, requests, (Double(requests) / Double(max(calls, 1)) - 1) * 100, p50 * 1000, p99 * 1000, goal))
        }

        print("\n  Burst of 1,000 calls from one process against a server doing 32 at a time (10 ms each: 0.31 s at best)")
        print("  defence            seconds   failed   then, with 2 in 3 of a burst cancelled: next call (ms)   requests the server did")
        for defence in ["none", "limit"] {
            let reports = try await fleet("burst", defence: defence, url: server.baseURL, seconds: 0, processes: 1)
            let requests = server.takeCount("/capacity")
            guard let report = reports.first else { continue }
            print("  " + defence.padding(toLength: 16, withPad: " ", startingAt: 0)
                + String(format: "%9.2f %8d %58.1f %24d", report.p99, report.failed, (report.recovery ?? 0) * 1000, requests))
        }
    }

    /// What one client process reports.
    struct Report {
        var calls = 0
        var failed = 0
        var failP99 = 0.0
        var p50 = 0.0
        var p99 = 0.0
        /// Every call's latency, in seconds (the slow-tail rows).
        var latencies: [Double] = []
        /// Seconds from the dependency's recovery to this process's first success, or the
        /// burst's next-call latency.
        var recovery: Double?

        init(line: Substring) {
            for field in line.split(separator: " ") {
                let parts = field.split(separator: "=")
                if parts.count == 2, parts[0] == "latencies" {
                    latencies = parts[1].split(separator: ",").compactMap { Double($0) }.map { $0 / 1000 }
                    continue
                }
                guard parts.count == 2, let value = Double(parts[1]) else { continue }
                switch parts[0] {
                case "calls": calls = Int(value)
                case "failed": failed = Int(value)
                case "failP99": failP99 = value
                case "p50": p50 = value
                case "p99": p99 = value
                case "recovery": recovery = value
                default: break
                }
            }
        }
    }

    /// Runs `processes` children of `scenario` at once and gathers their reports.
    static func fleet(
        _ scenario: String, defence: String, url: URL, seconds: Double, recoveryAt: UInt64 = 0, processes: Int = processes
    ) async throws -> [Report] {
        var children: [(Process, Pipe)] = []
        for _ in 0..<processes {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
            process.arguments = ["overload-child", scenario, defence, url.absoluteString, String(seconds), String(recoveryAt)]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            children.append((process, pipe))
        }
        var reports: [Report] = []
        for (process, pipe) in children {
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("report ") }) { reports.append(Report(line: line)) }
        }
        return reports
    }

    /// In a child: the scenario's calls with `defence`, then one `report …` line.
    static func child(_ scenario: String, defence: String, url: URL, seconds: Double, recoveryAt: UInt64) async throws {
        let refusals = RefusalTimer()
        let client = AsyncHTTPClientClient(baseURL: url, monitors: [refusals], retryPolicy: retryPolicy, overload: policy(defence))
        defer { Task { try? await client.shutdown() } }
        switch scenario {
        case "burst": try await burst(client)
        default: try await steady(client, path: scenario, seconds: seconds, recoveryAt: recoveryAt, refusals: refusals)
        }
        try await client.shutdown()
    }

    /// 8 loops, one call every 50 ms each, for `seconds`. For the dead dependency, the calls
    /// made before `recoveryAt` (uptime nanoseconds, shared by all processes) are reported, and
    /// how soon after it the first call succeeded.
    private static func steady(
        _ client: AsyncHTTPClientClient, path: String, seconds: Double, recoveryAt: UInt64, refusals: RefusalTimer
    ) async throws {
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        let results = await withTaskGroup(of: [Outcome].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var results: [Outcome] = []
                    var next = DispatchTime.now().uptimeNanoseconds
                    while next < end {
                        let begin = DispatchTime.now().uptimeNanoseconds
                        var outcome = Outcome(latency: 0, ok: true, begin: begin, end: 0)
                        do {
                            _ = try await client.request(RawBytes(path: path))
                        } catch {
                            outcome.ok = false
                        }
                        outcome.end = DispatchTime.now().uptimeNanoseconds
                        outcome.latency = Double(outcome.end - begin) / 1e9
                        results.append(outcome)
                        next += 50_000_000
                        if next > outcome.end { try? await Task.sleep(nanoseconds: next - outcome.end) }
                    }
                    return results
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        func at(_ values: [Double], _ p: Double) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        guard path == "dead" else {
            let latencies = results.map(\.latency)
            let all = latencies.map { String(format: "%.3f", $0 * 1000) }.joined(separator: ",")
            return print("report calls=\(results.count) failed=\(results.filter { !$0.ok }.count) p50=\(at(latencies, 0.5)) p99=\(at(latencies, 0.99)) latencies=\(all)")
        }
        let whileDead = results.filter { $0.begin < recoveryAt }
        let failures = whileDead.filter { !$0.ok }
        let refused = refusals.durations.withLock { $0 }
        let failP99 = at(refused.isEmpty ? failures.map(\.latency) : refused, 0.99)
        let firstSuccess = results.filter { $0.ok && $0.end >= recoveryAt }.map(\.end).min()
        let recovery = firstSuccess.map { " recovery=\(Double($0 - recoveryAt) / 1e9)" } ?? ""
        print("report calls=\(whileDead.count) failed=\(failures.count) failP99=\(failP99)" + recovery)
    }

    private struct Outcome {
        var latency: Double
        var ok: Bool
        let begin: UInt64
        var end: UInt64
    }

    /// 1,000 calls at once; then 1,000 more with 2 in 3 cancelled in their first 50 ms, and one
    /// call after them. Reports the first burst's time as p99, and the next call's as recovery.
    private static func burst(_ client: AsyncHTTPClientClient) async throws {
        let first = await Burst.run(client, path: "capacity", count: 1_000, cancelling: false)
        let second = await Burst.run(client, path: "capacity", count: 1_000, cancelling: true)
        print("report calls=2000 failed=\(first.failed + second.failed) p99=\(first.seconds) recovery=\(second.nextCall)")
    }

    /// The durations of calls an open circuit refused at their first attempt, from their events.
    final class RefusalTimer: CallMonitor {
        let durations = Locked<[Double]>([])

        func callFinished(_ event: CallFinished) {
            guard event.call.attempt == 1, case EndpointKitError.circuitOpen? = event.error else { return }
            durations.withLock { $0.append(event.duration) }
        }
    }
}
