import Foundation

/// The ``CircuitBreaker`` of each host a client calls.
final class CircuitBoard: Sendable {
    /// Whether a call may go, and as what.
    enum Admission: Equatable {
        /// The circuit is closed.
        case pass
        /// The circuit is half-open and this call probes it, in the round of probes that began
        /// at this uptime (nanoseconds).
        case probe(round: UInt64)
        /// The circuit is open until this uptime (nanoseconds).
        case reject(until: UInt64)
    }

    /// How a call ended, as the breaker counts it.
    enum Outcome {
        case success, failure, uncounted
    }

    /// A change of state a call's outcome caused.
    enum Transition {
        case opened, closed
    }

    private enum State {
        case closed(SlidingWindow, consecutive: Int)
        case open(until: UInt64)
        /// Half-open since `round` (an uptime in nanoseconds).
        case halfOpen(inFlight: Int, succeeded: Int, round: UInt64)
    }

    let breaker: CircuitBreaker
    private let states = Locked(HostTable<State>())

    init(_ breaker: CircuitBreaker) {
        self.breaker = breaker
    }

    /// How many hosts the board holds a circuit for.
    var hostCount: Int { states.withLock { $0.count } }

    /// Whether a call to `host` may go now.
    func admit(_ host: String, now: UInt64 = CallContext.now) -> Admission {
        states.withLock { states in
            switch states[host] {
            case nil, .closed: return .pass
            case .open(let until):
                guard now >= until else { return .reject(until: until) }
                guard !isForgotten(.open(until: until), now: now) else {
                    states[host] = nil
                    return .pass
                }
                states[host] = .halfOpen(inFlight: 1, succeeded: 0, round: now)
                return .probe(round: now)
            case .halfOpen(let inFlight, let succeeded, let round):
                // Probes that have not all answered within a window (a host that hangs, a call
                // without a time limit) hold the circuit no longer: this call begins a new round,
                // and theirs no longer count.
                guard now &- round < max(breaker.window, 0.001).nanoseconds else {
                    states[host] = .halfOpen(inFlight: 1, succeeded: 0, round: now)
                    return .probe(round: now)
                }
                guard inFlight + succeeded < breaker.probes else {
                    return .reject(until: now &+ breaker.openDuration.nanoseconds / 10)
                }
                states[host] = .halfOpen(inFlight: inFlight + 1, succeeded: succeeded, round: round)
                return .probe(round: round)
            }
        }
    }

    /// How long the circuit of `host` stays open, in seconds, if it is open now: a retry that
    /// would be sent sooner is refused at once (see ``OverloadGuard/allowsRetry(after:deadline:url:)``).
    func openTime(_ host: String, now: UInt64 = CallContext.now) -> TimeInterval? {
        states.withLock { states in
            guard case .open(let until)? = states[host], until > now else { return nil }
            return Double(until - now) / 1e9
        }
    }

    /// Counts how a call admitted as `admission` ended.
    func record(_ outcome: Outcome, host: String, admission: Admission, now: UInt64 = CallContext.now) -> Transition? {
        states.withLock { states in
            states.update(
                host, fresh: .closed(SlidingWindow(window: breaker.window), consecutive: 0), isStale: { isForgotten($0, now: now) }
            ) { record(outcome, in: &$0, admission: admission, now: now) }
        }
    }

    private func record(_ outcome: Outcome, in state: inout State, admission: Admission, now: UInt64) -> Transition? {
        switch (state, admission) {
        case (.halfOpen(let inFlight, let succeeded, let round), .probe(let probed)) where probed == round:
            switch outcome {
            case .failure:
                state = .open(until: now &+ breaker.openDuration.nanoseconds)
                return .opened
            case .uncounted:
                state = .halfOpen(inFlight: inFlight - 1, succeeded: succeeded, round: round)
                return nil
            case .success:
                guard succeeded + 1 >= breaker.probes else {
                    state = .halfOpen(inFlight: inFlight - 1, succeeded: succeeded + 1, round: round)
                    return nil
                }
                state = .closed(SlidingWindow(window: breaker.window), consecutive: 0)
                return .closed
            }
        case (.closed(var window, var consecutive), .pass):
            guard outcome != .uncounted else { return nil }
            // A window without calls breaks a run of failures, as it empties the counts.
            if window.isEmpty(now: now) { consecutive = 0 }
            let failed = outcome == .failure
            window.add(first: failed ? 0 : 1, second: failed ? 1 : 0, now: now)
            consecutive = failed ? consecutive + 1 : 0
            let (successes, failures) = window.totals(now: now)
            let total = successes + failures
            let byRatio = total >= Double(breaker.minimumCalls) && failures / max(total, 1) >= breaker.failureRatio
            let byRun = breaker.consecutiveFailures.map { consecutive >= $0 } ?? false
            if failed, byRatio || byRun {
                state = .open(until: now &+ breaker.openDuration.nanoseconds)
                return .opened
            }
            state = .closed(window, consecutive: consecutive)
            return nil
        default:
            return nil  // the circuit opened, or a new round of probes began, while this call was in flight
        }
    }

    /// Whether `state` is as good as none at `now`: closed with nothing counted in the window,
    /// or open and not called for a window past its open time. A host then starts afresh.
    private func isForgotten(_ state: State, now: UInt64) -> Bool {
        switch state {
        case .closed(let window, _): window.isEmpty(now: now)
        case .open(let until): now >= until && now - until >= max(breaker.window, 0.001).nanoseconds
        case .halfOpen: false
        }
    }
}
