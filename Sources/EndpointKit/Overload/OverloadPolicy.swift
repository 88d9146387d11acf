import Foundation

/// How a client protects itself, and the services it calls, when one of them fails or slows
/// down: one value per client (`overload:` in the client's initializer).
///
/// By default only the ``RetryBudget`` is on: retries may add at most 20 % to the calls of the
/// last 10 seconds (or 10 a second, if more), so a client cannot triple the load on a service that is
/// already down. The circuit breaker, the concurrency limit and hedging are opt-in.
///
/// ```swift
/// let client = AsyncHTTPClientClient(
///     baseURL: api, retryPolicy: .default,
///     overload: OverloadPolicy(circuitBreaker: CircuitBreaker(), concurrencyLimit: ConcurrencyLimit(maximumInFlight: 32)))
/// ```
///
/// Each decision is a call event (``CallMonitor/overloadDecision(_:)``), which EndpointKitTelemetry
/// logs, counts and adds to the call's span.
public struct OverloadPolicy: Sendable, Equatable {
    /// How many retries (and hedges) the client may send, against how many calls it makes;
    /// `nil` lets every retry the retry policy asks for through.
    public var retryBudget: RetryBudget?
    /// Fails calls to a host at once while that host keeps failing; `nil` for none.
    public var circuitBreaker: CircuitBreaker?
    /// The most calls in flight to one host, and how many may wait; `nil` for no limit.
    public var concurrencyLimit: ConcurrencyLimit?
    /// Sends a second attempt of a slow idempotent call; `nil` for none.
    public var hedging: HedgingPolicy?

    /// Creates a policy; by default with a retry budget only.
    public init(
        retryBudget: RetryBudget? = .default, circuitBreaker: CircuitBreaker? = nil,
        concurrencyLimit: ConcurrencyLimit? = nil, hedging: HedgingPolicy? = nil
    ) {
        self.retryBudget = retryBudget
        self.circuitBreaker = circuitBreaker
        self.concurrencyLimit = concurrencyLimit
        self.hedging = hedging
    }

    /// The retry budget alone.
    public static let `default` = OverloadPolicy()

    /// No protection at all: every retry the retry policy asks for is sent.
    public static let none = OverloadPolicy(retryBudget: nil)
}
