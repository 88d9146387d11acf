import Foundation

/// A client's ``OverloadPolicy`` at work: the retry budget's ledger, each host's circuit and
/// queue, and the latencies hedging reads. Made once per client; its decisions are told to the
/// client's monitor with the call's ``CallContext/current``.
final class OverloadGuard: Sendable {
    let policy: OverloadPolicy
    let budget: RetryBudgetLedger?
    let circuits: CircuitBoard?
    let queues: HostQueues?
    let latencies = LatencyRecord()
    private let monitor: (any CallMonitor)?

    init(_ policy: OverloadPolicy, monitor: (any CallMonitor)?) {
        self.policy = policy
        self.budget = policy.retryBudget.map(RetryBudgetLedger.init)
        self.circuits = policy.circuitBreaker.map(CircuitBoard.init)
        self.queues = policy.concurrencyLimit.map(HostQueues.init)
        self.monitor = monitor
    }

    /// Tells the monitor about `kind` for the current call.
    func tell(_ kind: OverloadDecision.Kind, host: String, seconds: TimeInterval? = nil) {
        monitor?.overloadDecision(OverloadDecision(call: CallContext.current, kind: kind, host: host, seconds: seconds))
    }

    /// Whether a retry of a request to `url` after `delay` seconds may be sent, for a call with
    /// `deadline`: `true` when it may (and is paid for); otherwise the monitor is told why not.
    /// A retry that the host's open circuit would refuse is not begun: the call ends at once
    /// with the attempt's own error (the server's answer, say), not with
    /// ``EndpointKitError/circuitOpen(host:until:)`` after the retry's wait.
    func allowsRetry(after delay: TimeInterval, deadline: CallDeadline?, url: URL?) -> Bool {
        let host = Self.host(of: url)
        if let deadline, delay >= deadline.remaining {
            tell(.retryPastDeadline, host: host, seconds: delay)
        } else if let open = circuits?.openTime(host), open > delay {
            tell(.circuitRejected, host: host, seconds: open)
        } else if let budget, !budget.withdraw() {
            tell(.retryRefused, host: host, seconds: delay)
        } else {
            return true
        }
        return false
    }

    /// Whether `error` is the guard's refusal of a request it did not send: an open circuit or
    /// a full queue.
    static func refusedUnsent(_ error: any Error) -> Bool {
        switch error {
        case EndpointKitError.circuitOpen, EndpointKitError.tooManyCalls: true
        default: false
        }
    }

    /// `host:port` of `url`, the key of its circuit and queue.
    static func host(of url: URL?) -> String {
        url?.serverKey ?? "<no host>"
    }
}
