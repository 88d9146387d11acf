import Foundation

/// Two counts over the last `window` seconds, kept in ten buckets: old buckets drop out as
/// time passes, so a count is never more than a tenth of the window stale.
struct SlidingWindow {
    private struct Bucket {
        var index: UInt64 = .max
        var first = 0.0
        var second = 0.0
    }

    private let bucketNanoseconds: UInt64
    private var buckets = [Bucket](repeating: Bucket(), count: 10)

    init(window: TimeInterval) {
        bucketNanoseconds = max(1, max(window, 0.001).nanoseconds / 10)
    }

    /// Adds to the bucket of `now` (uptime nanoseconds).
    mutating func add(first: Double = 0, second: Double = 0, now: UInt64) {
        let index = now / bucketNanoseconds
        let slot = Int(index % UInt64(buckets.count))
        if buckets[slot].index != index { buckets[slot] = Bucket(index: index) }
        buckets[slot].first += first
        buckets[slot].second += second
    }

    /// Whether nothing was counted in the window that ends at `now`.
    func isEmpty(now: UInt64) -> Bool {
        totals(now: now) == (0, 0)
    }

    /// Both counts over the window that ends at `now`.
    func totals(now: UInt64) -> (first: Double, second: Double) {
        let current = now / bucketNanoseconds
        let oldest = current >= UInt64(buckets.count - 1) ? current - UInt64(buckets.count - 1) : 0
        var sums = (first: 0.0, second: 0.0)
        for bucket in buckets where bucket.index != .max && bucket.index >= oldest && bucket.index <= current {
            sums.first += bucket.first
            sums.second += bucket.second
        }
        return sums
    }
}
