@_spi(Locking) import EndpointKit
#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// One subscription to a ``TaskPublisher``: the task that runs its work, the subscriber's
/// demand, and values waiting for it. Calls to the subscriber are serialized (one drain at a
/// time, re-entrant requests folded in), as Combine requires.
public final class TaskSubscription<Output: Sendable>: Subscription, Sendable {
    private struct State {
        var subscriber: AnySubscriber<Output, any Error>?
        var demand = Subscribers.Demand.none
        var queue: [Output] = []
        /// Whether the last queued value may be replaced by a newer offered one.
        var lastIsOffered = false
        var completion: Subscribers.Completion<any Error>?
        var started = false
        var task: Task<Void, Never>?
        var draining = false
        var waiting: CheckedContinuation<Void, any Error>?
    }

    private enum Step {
        case value(AnySubscriber<Output, any Error>, Output)
        case complete(AnySubscriber<Output, any Error>, Subscribers.Completion<any Error>)
        case done
    }

    private let state: Locked<State>
    private let work: @Sendable (TaskPublisher<Output>.Emitter) async throws -> Void

    init<S: Subscriber>(subscriber: S, work: @escaping @Sendable (TaskPublisher<Output>.Emitter) async throws -> Void)
    where S.Input == Output, S.Failure == any Error {
        self.state = Locked(State(subscriber: AnySubscriber(subscriber)))
        self.work = work
    }

    /// Adds demand; the first demand starts the work.
    public func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let (start, waiting) = state.withLock { state -> (Bool, CheckedContinuation<Void, any Error>?) in
            guard state.subscriber != nil else { return (false, nil) }
            state.demand += demand
            defer { (state.started, state.waiting) = (true, nil) }
            return (!state.started, state.waiting)
        }
        if start {
            let task = Task { [self] in await run() }
            let cancelled = state.withLock { state in
                state.task = task
                return state.subscriber == nil
            }
            if cancelled { task.cancel() }
        }
        drain()
        waiting?.resume()
    }

    /// Stops the work and lets go of the subscriber.
    public func cancel() {
        let (task, waiting) = state.withLock { state in
            defer { (state.subscriber, state.queue, state.task, state.waiting) = (nil, [], nil, nil) }
            return (state.task, state.waiting)
        }
        task?.cancel()
        waiting?.resume(throwing: CancellationError())
    }

    private func run() async {
        let completion: Subscribers.Completion<any Error>
        do {
            try await work(TaskPublisher.Emitter(subscription: self))
            completion = .finished
        } catch {
            completion = .failure(error)
        }
        state.withLock { $0.completion = completion }
        drain()
    }

    func send(_ value: Output) async throws {
        // Wait until the subscriber wants more than what already waits for it.
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> Result<Void, any Error>? in
                    guard state.subscriber != nil, !Task.isCancelled else { return .failure(CancellationError()) }
                    if state.demand > state.queue.count { return .success(()) }
                    state.waiting = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.waiting = nil }
                return state.waiting
            }?.resume(throwing: CancellationError())
        }
        state.withLock { state in
            state.queue.append(value)
            state.lastIsOffered = false
        }
        drain()
    }

    func offer(_ value: Output) {
        state.withLock { state in
            guard state.subscriber != nil else { return }
            if state.lastIsOffered, !state.queue.isEmpty {
                state.queue[state.queue.count - 1] = value
            } else if state.demand > state.queue.count || state.queue.isEmpty {
                state.queue.append(value)
                state.lastIsOffered = true
            }
        }
        drain()
    }

    /// Delivers what waits, while there is demand, then the completion; one caller at a time.
    private func drain() {
        while true {
            let step = state.withLock { state -> Step in
                guard !state.draining, let subscriber = state.subscriber else { return .done }
                if state.demand > 0, !state.queue.isEmpty {
                    state.draining = true
                    state.demand -= 1
                    if state.queue.count == 1 { state.lastIsOffered = false }
                    return .value(subscriber, state.queue.removeFirst())
                }
                if state.queue.isEmpty, let completion = state.completion {
                    state.subscriber = nil
                    return .complete(subscriber, completion)
                }
                return .done
            }
            switch step {
            case .value(let subscriber, let value):
                let more = subscriber.receive(value)
                let waiting = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                    state.draining = false
                    guard state.subscriber != nil else { return nil }
                    state.demand += more
                    guard state.demand > state.queue.count else { return nil }
                    defer { state.waiting = nil }
                    return state.waiting
                }
                waiting?.resume()
            case .complete(let subscriber, let completion):
                subscriber.receive(completion: completion)
                return
            case .done:
                return
            }
        }
    }
}
