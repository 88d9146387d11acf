import Foundation

/// The latest answer times of each host, for a hedge delay at a percentile of them.
final class LatencyRecord: Sendable {
    private static let kept = 200
    private let samples = Locked<[String: (values: [Double], next: Int)]>([:])

    /// Adds an answer of `host` that took `seconds`.
    func add(_ seconds: TimeInterval, host: String) {
        samples.withLock { samples in
            var entry = samples[host] ?? ([], 0)
            if entry.values.count < Self.kept {
                entry.values.append(seconds)
            } else {
                entry.values[entry.next] = seconds
            }
            entry.next = (entry.next + 1) % Self.kept
            samples[host] = entry
        }
    }

    /// The latency at `percentile` (0...1) of `host`'s latest answers; `nil` before 20.
    func percentile(_ percentile: Double, host: String) -> TimeInterval? {
        guard let values = samples.withLock({ $0[host]?.values }), values.count >= 20 else { return nil }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * min(max(percentile, 0), 1)))]
    }
}
