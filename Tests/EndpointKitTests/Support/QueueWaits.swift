import EndpointKit
import Foundation

/// Records how long each call waited in a host's queue (the `queued` overload decisions), for
/// scenarios that check what a wait leaves of a call's time.
final class QueueWaits: CallMonitor {
    private let box = Guarded<[TimeInterval]>([])

    /// The waits, in seconds, in the order they ended.
    var seconds: [TimeInterval] { box.withLock { $0 } }

    func overloadDecision(_ event: OverloadDecision) {
        guard event.kind == .queued, let seconds = event.seconds else { return }
        box.withLock { $0.append(seconds) }
    }
}
