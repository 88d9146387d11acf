import Foundation

/// Reads `Retry-After` (RFC 9110, 10.2.3): a number of seconds, or an HTTP date.
enum RetryAfter {
    /// The seconds to wait from `now`, never negative; `nil` if absent or unreadable.
    static func seconds(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = TimeInterval(value), seconds >= 0, seconds.isFinite { return seconds }
        return HTTPDate.parse(value).map { max(0, $0.timeIntervalSince(now)) }
    }
}
