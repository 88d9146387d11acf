import Foundation

/// Sends a second attempt of a call whose answer is late, and takes whichever answers first:
/// one slow server or connection then costs a call the hedge delay, not its whole tail.
///
/// Only calls whose method is idempotent (`GET`, `HEAD`, `OPTIONS`, `PUT`, `DELETE`, `TRACE`)
/// whose body is in memory are hedged; downloads to a file, and uploads from a file, a stream
/// or a producer, are not. A stream (every generated OpenAPI call is one) is hedged on its
/// head: the first head wins. The losing attempt is cancelled (its connection closed). Under a
/// ``ConcurrencyLimit``, a hedge takes a place of its own, and is not sent when none is free. Each hedge spends from the
/// ``RetryBudget``, so hedging adds at most the budget's share of load; without a budget,
/// hedges are not limited.
///
/// Set it for a client (``OverloadPolicy/hedging``) or for one endpoint, which overrides the
/// client's: `var hedging: HedgingPolicy? { HedgingPolicy(delay: .fixed(0.05)) }`, or
/// ``none`` to never hedge that endpoint.
public struct HedgingPolicy: Sendable, Equatable {
    /// When the second attempt is sent.
    public enum Delay: Sendable, Equatable {
        /// After this many seconds.
        case fixed(TimeInterval)
        /// After the client's observed latency at this percentile (0.95 for p95) of the host's
        /// recent answers, but not before `minimum` seconds; `minimum` alone until 20 answers
        /// have been seen, and again once the host has not answered for five minutes.
        case percentile(Double, minimum: TimeInterval)
        /// Never: no hedge (an endpoint's way to turn off its client's hedging).
        case never
    }

    /// When the second attempt is sent.
    public var delay: Delay

    /// Creates a policy.
    public init(delay: Delay) {
        self.delay = delay
    }

    /// No hedging: for an endpoint of a client that hedges.
    public static let none = HedgingPolicy(delay: .never)
}
