/// Several monitors as one: each event goes to each, in order.
public struct CallMonitorGroup: CallMonitor {
    /// The monitors, in the order they are told.
    public let monitors: [any CallMonitor]

    /// Groups `monitors`.
    public init(_ monitors: [any CallMonitor]) {
        self.monitors = monitors
    }

    /// Tells each monitor.
    public func callStarted(_ event: CallStarted) {
        for monitor in monitors { monitor.callStarted(event) }
    }

    /// Tells each monitor.
    public func attemptStarted(_ event: AttemptStarted) {
        for monitor in monitors { monitor.attemptStarted(event) }
    }

    /// Each monitor's headers, in order (a later one's field replaces an earlier one's).
    public func headers(for attempt: AttemptStarted) -> [(name: String, value: String)] {
        monitors.flatMap { $0.headers(for: attempt) }
    }

    /// Tells each monitor.
    public func redirectFollowed(_ event: RedirectFollowed) {
        for monitor in monitors { monitor.redirectFollowed(event) }
    }

    /// Tells each monitor.
    public func attemptFinished(_ event: AttemptFinished) {
        for monitor in monitors { monitor.attemptFinished(event) }
    }

    /// Tells each monitor.
    public func retryScheduled(_ event: RetryScheduled) {
        for monitor in monitors { monitor.retryScheduled(event) }
    }

    /// Tells each monitor.
    public func callFinished(_ event: CallFinished) {
        for monitor in monitors { monitor.callFinished(event) }
    }

    /// Tells each monitor.
    public func overloadDecision(_ event: OverloadDecision) {
        for monitor in monitors { monitor.overloadDecision(event) }
    }

    /// The one monitor for `observer` and `monitors`, or `nil` when there is none: then a
    /// call makes no event at all.
    static func combining(_ observer: ResponseObserver?, _ monitors: [any CallMonitor]) -> (any CallMonitor)? {
        let all = (observer.map { [ObserverMonitor(observer: $0)] } ?? []) + monitors
        return all.count > 1 ? CallMonitorGroup(all) : all.first
    }
}
