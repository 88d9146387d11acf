@_spi(Locking) import EndpointKit
#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// The subscriber behind a ``PublisherElements`` iterator: one value demanded per `next()`,
/// handed to the waiting loop.
public final class ElementSubscriber<Input: Sendable, Failure: Error>: Subscriber, Sendable {
    private struct State {
        var subscription: (any Subscription)?
        var pending: Input?
        var completion: Subscribers.Completion<Failure>?
        var cancelled = false
        var waiting: CheckedContinuation<Input?, any Error>?
        var requested = false
    }

    private enum Action {
        case resume(Result<Input?, any Error>)
        case request(any Subscription)
        case wait
    }

    private let state = Locked(State())

    /// Keeps the subscription; values are asked for one at a time by `next()`.
    public func receive(subscription: any Subscription) {
        let (keep, ask) = state.withLock { state -> (Bool, Bool) in
            guard state.subscription == nil, !state.cancelled else { return (false, false) }
            state.subscription = subscription
            if state.waiting != nil { state.requested = true }
            return (true, state.requested)
        }
        if !keep { subscription.cancel() } else if ask { subscription.request(.max(1)) }
    }

    /// Hands `input` to the waiting loop; asks for nothing more until the next `next()`.
    public func receive(_ input: Input) -> Subscribers.Demand {
        let waiting = state.withLock { state -> CheckedContinuation<Input?, any Error>? in
            state.requested = false
            guard let waiting = state.waiting else {
                state.pending = input
                return nil
            }
            state.waiting = nil
            return waiting
        }
        waiting?.resume(returning: input)
        return .none
    }

    /// Ends the loop: `nil` after `.finished`, the error after `.failure`.
    public func receive(completion: Subscribers.Completion<Failure>) {
        let waiting = state.withLock { state -> CheckedContinuation<Input?, any Error>? in
            state.completion = completion
            state.subscription = nil
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting.map { Self.resume($0, with: completion) }
    }

    /// Cancels the subscription; a waiting `next()` returns `nil`.
    func cancel() {
        let (subscription, waiting) = state.withLock { state in
            defer { (state.cancelled, state.subscription, state.waiting) = (true, nil, nil) }
            return (state.subscription, state.waiting)
        }
        subscription?.cancel()
        waiting?.resume(returning: nil)
    }

    func next() async throws -> Input? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Input?, any Error>) in
                let action = state.withLock { state -> Action in
                    if let pending = state.pending {
                        state.pending = nil
                        return .resume(.success(pending))
                    }
                    if state.cancelled || Task.isCancelled { return .resume(.success(nil)) }
                    if let completion = state.completion {
                        if case .failure(let error) = completion { return .resume(.failure(error)) }
                        return .resume(.success(nil))
                    }
                    state.waiting = continuation
                    guard let subscription = state.subscription, !state.requested else { return .wait }
                    state.requested = true
                    return .request(subscription)
                }
                switch action {
                case .resume(let result): continuation.resume(with: result)
                case .request(let subscription): subscription.request(.max(1))
                case .wait: break
                }
            }
        } onCancel: {
            cancel()
        }
    }

    private static func resume(_ continuation: CheckedContinuation<Input?, any Error>, with completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: continuation.resume(returning: nil)
        case .failure(let error): continuation.resume(throwing: error)
        }
    }
}
