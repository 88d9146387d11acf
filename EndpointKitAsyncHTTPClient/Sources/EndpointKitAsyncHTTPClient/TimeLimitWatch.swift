@_spi(Locking) import EndpointKit
import NIOCore

/// The time limits of a client's calls received through AsyncHTTPClient's delegate API
/// (``ResponseReceiver``), watched by one timer on one event loop.
///
/// A timer of its own for each call was scheduled on its event loop from the caller's thread,
/// and that wakes the loop when it waits for its sockets: at 16 in flight, about 4 % of the
/// requests a second and 5 % of the CPU a request (small GETs against nginx, a 30 s limit). Here
/// a call's limit is noted, and dropped when its response ends, under a lock; a timer is
/// scheduled only when a limit ends before the one the next timer is due for, which calls with
/// the same limit, started one after another, never do. When a timer fires, the calls whose
/// limit has passed are ended, and the next timer is set for the earliest limit left.
final class TimeLimitWatch: Sendable {
    private struct State {
        /// Each call noted, by its receiver, and the end of its time.
        var limits: [ObjectIdentifier: (deadline: NIODeadline, receiver: ResponseReceiver)] = [:]
        /// When the earliest timer scheduled fires, if one is.
        var due: NIODeadline?
    }

    private let state = Locked(State())
    private let eventLoop: any EventLoop

    /// A watch whose timers run on `eventLoop`.
    init(on eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Ends `receiver`'s response with its timeout at `deadline`, unless it is dropped first.
    func note(_ receiver: ResponseReceiver, until deadline: NIODeadline) {
        let schedule = state.withLock { state -> Bool in
            state.limits[ObjectIdentifier(receiver)] = (deadline, receiver)
            if let due = state.due, due <= deadline { return false }
            state.due = deadline
            return true
        }
        if schedule { scheduleCheck(at: deadline) }
    }

    /// Forgets `receiver`'s limit: its response has ended (or, for a stream, its head came).
    func drop(_ receiver: ResponseReceiver) {
        state.withLock { _ = $0.limits.removeValue(forKey: ObjectIdentifier(receiver)) }
    }

    private func scheduleCheck(at deadline: NIODeadline) {
        eventLoop.scheduleTask(deadline: deadline) { [self] in check() }
    }

    /// Ends the calls whose limit has passed, and sets the next timer for the earliest left.
    /// No limit noted ends before the timer that is due (``note(_:until:)`` sets it for the
    /// earliest), so a timer firing before it, one left from before an earlier limit was
    /// noted, has nothing to do.
    private func check() {
        let now = NIODeadline.now()
        let (passed, next) = state.withLock { state -> ([ResponseReceiver], NIODeadline?) in
            if let due = state.due, due > now { return ([], nil) }
            let passed = state.limits.filter { $0.value.deadline <= now }
            for key in passed.keys { state.limits[key] = nil }
            state.due = state.limits.values.lazy.map(\.deadline).min()
            return (passed.values.map(\.receiver), state.due)
        }
        for receiver in passed { receiver.timeIsUp() }
        if let next { scheduleCheck(at: next) }
    }
}
