import Foundation

/// A cap on retries, as a share of the calls a client made recently: when a service is down,
/// every call fails and wants retries; the budget lets only a few through, so the client's load
/// on the failing service stays near what it would be without retries.
///
/// Over the last ``window`` seconds, retries may be at most ``ratio`` of the calls started, or
/// ``minimumPerSecond`` × ``window`` when that is more: a floor, so that a quiet client can
/// still retry its rare failure, while a busy one adds at most ``ratio`` to its load. The
/// defaults, 20 % and 10 a second over 10 s, are Finagle's (which adds the two rather than
/// taking the larger); Envoy's retry budget also defaults to 20 %. A retry the budget refuses is not sent: the call fails with the error of
/// its last attempt, and monitors get ``OverloadDecision/Kind/retryRefused``. Hedges
/// (``HedgingPolicy``) spend from the same budget.
///
/// The budget is the client's, shared by all its calls to every host: a client usually calls
/// one service, and one budget keeps a failing service from being hammered by any of the calls.
/// Give each service its own client to keep their budgets apart.
public struct RetryBudget: Sendable, Equatable {
    /// The share of recent calls that may be retried, from 0 to 1.
    public var ratio: Double
    /// Retries allowed each second whatever the number of calls.
    public var minimumPerSecond: Double
    /// How far back calls and retries are counted, in seconds.
    public var window: TimeInterval

    /// Creates a budget; every parameter has the default described above.
    public init(ratio: Double = 0.2, minimumPerSecond: Double = 10, window: TimeInterval = 10) {
        self.ratio = ratio
        self.minimumPerSecond = minimumPerSecond
        self.window = window
    }

    /// 20 % of the calls of the last 10 s, plus 10 a second.
    public static let `default` = RetryBudget()
}
