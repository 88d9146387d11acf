@_spi(Locking) import EndpointKit
import NIOCore

/// Calls sent through a borrowed `HTTPClient`, kept for a moment to find those AsyncHTTPClient
/// never heard of: its owner may shut it down at any time, and a request it is given then
/// fails at once without a word to its delegate (``ResponseReceiver``), whose caller would
/// wait for ever.
///
/// Watching every request's task for that failure would cost a hop to its event loop for
/// each, from the caller's thread: at 16 in flight, about 3 % of the requests a second and 4 %
/// of the CPU a request (small GETs against nginx). So each call is only noted here (a lock,
/// an append, a weak reference). Every ``interval`` while calls are noted, those noted before
/// the last look that still have no head are watched, and the others let go. A call on a
/// client shut down thus fails within two intervals. (A call whose caller waits is there to
/// be found: the caller holds its receiver.)
final class SilentCallWatch: Sendable {
    /// A call noted: held weakly, so that a call's receiver, and the head and body it keeps,
    /// go as soon as the call is done with them, not when the call is let go.
    private struct Noted {
        weak var receiver: ResponseReceiver?
    }

    private struct State {
        /// Noted since the last look, and before it.
        var recent: [Noted] = []
        var older: [Noted] = []
        /// Whether a look is scheduled.
        var looking = false
    }

    private let state = Locked(State())
    private let eventLoop: any EventLoop

    /// How often the calls noted are looked at.
    static let interval = TimeAmount.milliseconds(250)

    /// A watch that looks at the calls on `eventLoop`.
    init(on eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Notes `receiver`'s call, to be watched if it has not had its head within an interval.
    func note(_ receiver: ResponseReceiver) {
        let startLooking = state.withLock { state in
            state.recent.append(Noted(receiver: receiver))
            let idle = !state.looking
            state.looking = true
            return idle
        }
        if startLooking { scheduleLook() }
    }

    private func scheduleLook() {
        eventLoop.scheduleTask(in: Self.interval) { [self] in look() }
    }

    /// Watches the calls noted before the last look that are still silent, and looks again
    /// while any are noted.
    private func look() {
        let (due, again) = state.withLock { state in
            let due = state.older
            state.older = state.recent
            state.recent = []
            state.looking = !state.older.isEmpty
            return (due, state.looking)
        }
        for noted in due { noted.receiver?.watchIfSilent() }
        if again { scheduleLook() }
    }
}
