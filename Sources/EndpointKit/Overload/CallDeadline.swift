import Foundation

/// A time by which the calls made in a task must be done, such as the time left to answer the
/// request a service is serving: no retry, backoff or `Retry-After` wait is begun that could
/// not end before it, and no attempt runs past it.
///
/// ```swift
/// // Everything this handler calls must be done within 2 s.
/// let book = try await CallDeadline.within(2) {
///     try await client.request(GetBook(id: 1))
/// }
/// ```
///
/// A call reads ``current`` when it starts; its ``CallContext/deadline`` and
/// ``CallContext/remainingTime`` tell adapters and monitors how long it has. An attempt gets the
/// smaller of its own timeout and the time left, and fails with
/// ``EndpointKitError/timedOut(url:limit:)`` when that runs out; the call then ends with it,
/// naming the time the call had. The client's and endpoint's `timeout` stays a limit per
/// attempt.
public struct CallDeadline: Sendable, Hashable, Comparable {
    /// The deadline in nanoseconds of uptime (a clock that never jumps).
    let uptime: UInt64

    /// The deadline of the calls the current task makes, or `nil` for none.
    @TaskLocal public static var current: CallDeadline?

    /// The deadline `seconds` from now.
    public static func after(_ seconds: TimeInterval) -> CallDeadline {
        CallDeadline(uptime: CallContext.now &+ seconds.nanoseconds)
    }

    /// Seconds left until the deadline; 0 once it has passed.
    public var remaining: TimeInterval {
        let now = CallContext.now
        return uptime > now ? Double(uptime - now) / 1e9 : 0
    }

    /// Whether the deadline has passed.
    public var hasPassed: Bool { CallContext.now >= uptime }

    /// Runs `operation` with a deadline `seconds` from now, or the current one if that is sooner.
    public static func within<Result>(
        _ seconds: TimeInterval, _ operation: () async throws -> Result
    ) async rethrows -> Result {
        let deadline = min(after(seconds), current ?? after(seconds))
        return try await $current.withValue(deadline, operation: operation)
    }

    /// Whether `lhs` comes first.
    public static func < (lhs: CallDeadline, rhs: CallDeadline) -> Bool {
        lhs.uptime < rhs.uptime
    }
}
