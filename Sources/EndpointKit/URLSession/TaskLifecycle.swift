import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cancellation state machine of one call's `URLSessionTask`, kept inside a handler's
/// locked state.
///
/// A cancel that arrives before the task exists wins: ``start(_:)`` then refuses the task, so it
/// is never resumed. ``finish()`` reports the first finish only, so a continuation is resumed
/// exactly once on every path.
struct TaskLifecycle {
    private enum Phase {
        case idle
        case running(URLSessionTask)
        case cancelled
        case finished
    }

    private var phase = Phase.idle

    /// The task, while it runs.
    var runningTask: URLSessionTask? {
        if case .running(let task) = phase { return task }
        return nil
    }

    /// Whether ``cancel()`` came before the call finished.
    private(set) var isCancelled = false

    /// Records the task; `false` if the call was cancelled first (do not resume the task then).
    mutating func start(_ task: URLSessionTask) -> Bool {
        guard case .idle = phase else { return false }
        phase = .running(task)
        return true
    }

    /// Marks the call cancelled; returns the task to cancel, if one is running.
    mutating func cancel() -> URLSessionTask? {
        switch phase {
        case .idle:
            phase = .cancelled
            isCancelled = true
            return nil
        case .running(let task):
            phase = .cancelled
            isCancelled = true
            return task
        case .cancelled, .finished:
            return nil
        }
    }

    /// Marks the call finished; `false` if it had finished already.
    mutating func finish() -> Bool {
        if case .finished = phase { return false }
        phase = .finished
        return true
    }
}
