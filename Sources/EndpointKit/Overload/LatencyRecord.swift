import Foundation

/// The latest answer times of each host, for a hedge delay at a percentile of them. Times older
/// than five minutes are not a host's latency any more: the host is forgotten (``HostTable``).
final class LatencyRecord: Sendable {
    private struct Samples {
        var values: [Double] = []
        var next = 0
        /// When the latest was added (uptime nanoseconds).
        var latest: UInt64 = 0

        func isStale(now: UInt64) -> Bool {
            now >= latest && now - latest > LatencyRecord.horizon
        }
    }

    private static let kept = 200
    private static let horizon: UInt64 = 300 * 1_000_000_000
    private let hosts = Locked(HostTable<Samples>())

    /// How many hosts the record holds times for.
    var hostCount: Int { hosts.withLock { $0.count } }

    /// Adds an answer of `host` that took `seconds`, at `now` (uptime nanoseconds).
    func add(_ seconds: TimeInterval, host: String, now: UInt64 = CallContext.now) {
        hosts.withLock { hosts in
            hosts.update(host, fresh: Samples(), isStale: { $0.isStale(now: now) }) { samples in
                if samples.isStale(now: now) { samples = Samples() }
                if samples.values.count < Self.kept {
                    samples.values.append(seconds)
                } else {
                    samples.values[samples.next] = seconds
                }
                samples.next = (samples.next + 1) % Self.kept
                samples.latest = now
            }
        }
    }

    /// The latency at `percentile` (0...1) of `host`'s latest answers; `nil` before 20.
    func percentile(_ percentile: Double, host: String, now: UInt64 = CallContext.now) -> TimeInterval? {
        guard let samples = hosts.withLock({ $0[host] }), !samples.isStale(now: now), samples.values.count >= 20 else { return nil }
        let sorted = samples.values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * min(max(percentile, 0), 1)))]
    }
}
