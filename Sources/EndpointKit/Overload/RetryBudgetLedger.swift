import Foundation

/// A client's ``RetryBudget`` at work: the calls it started and the retries and hedges it sent
/// over the budget's window.
final class RetryBudgetLedger: Sendable {
    let budget: RetryBudget
    /// Calls (first) and retries (second) over the window.
    private let counts: Locked<SlidingWindow>

    init(_ budget: RetryBudget) {
        self.budget = budget
        self.counts = Locked(SlidingWindow(window: budget.window))
    }

    /// A call started.
    func deposit(now: UInt64 = CallContext.now) {
        counts.withLock { $0.add(first: 1, now: now) }
    }

    /// Spends one retry if the budget has one: `false` when it is spent.
    func withdraw(now: UInt64 = CallContext.now) -> Bool {
        counts.withLock { counts in
            let (calls, retries) = counts.totals(now: now)
            let allowed = max(budget.ratio * calls, budget.minimumPerSecond * budget.window)
            guard retries + 1 <= allowed else { return false }
            counts.add(second: 1, now: now)
            return true
        }
    }
}
