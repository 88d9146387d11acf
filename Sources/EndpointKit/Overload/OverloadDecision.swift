import Foundation

/// A decision the client's ``OverloadPolicy`` took for a call:
/// ``CallMonitor/overloadDecision(_:)``.
public struct OverloadDecision: Sendable {
    /// What was decided.
    public enum Kind: String, Sendable, CaseIterable {
        /// A retry the retry policy asked for was not sent: the ``RetryBudget`` is spent.
        case retryRefused = "retry_refused"
        /// A retry was not sent because it could not finish before the call's deadline.
        case retryPastDeadline = "retry_past_deadline"
        /// The call failed at once: the host's circuit is open. Also a retry not sent because
        /// the circuit would still be open when it went: the call then ends with its last
        /// attempt's error.
        case circuitRejected = "circuit_rejected"
        /// The host's circuit opened (after this call's failure, or a probe's).
        case circuitOpened = "circuit_opened"
        /// The host's circuit let this call through as a probe.
        case circuitProbe = "circuit_probe"
        /// The host's circuit closed again (after this call's success).
        case circuitClosed = "circuit_closed"
        /// The call waited for the host's ``ConcurrencyLimit``.
        case queued
        /// The call failed at once: the host's queue is full.
        case queueFull = "queue_full"
        /// A second attempt of the call was sent (``HedgingPolicy``).
        case hedged
        /// A hedge was not sent: the ``RetryBudget`` is spent, or the host's
        /// ``ConcurrencyLimit`` has no place free.
        case hedgeRefused = "hedge_refused"
    }

    /// Which call, or `nil` when the decision was taken outside one.
    public let call: CallContext?
    /// What was decided.
    public let kind: Kind
    /// The host (and port) it concerns, such as `api.example.com:443`.
    public let host: String
    /// Seconds involved: how long the call waited in a queue, the hedge delay, the time until
    /// an open circuit lets a probe through; `nil` otherwise.
    public let seconds: TimeInterval?

    /// Creates the event (for tests of a monitor; clients make them as calls run).
    public init(call: CallContext?, kind: Kind, host: String, seconds: TimeInterval? = nil) {
        self.call = call
        self.kind = kind
        self.host = host
        self.seconds = seconds
    }
}
