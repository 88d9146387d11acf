#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// A publisher whose values come from async work, run in a `Task` per subscription.
///
/// The work starts on the subscriber's first demand, not when the publisher is made or
/// subscribed to. It sends values through an ``Emitter``: ``Emitter/send(_:)`` waits until the
/// subscriber wants a value (back-pressure), ``Emitter/offer(_:)`` drops the value when it does
/// not (for progress). When the work returns the subscriber gets `.finished`; when it throws,
/// `.failure`. Cancelling the subscription cancels the task.
public struct TaskPublisher<Output: Sendable>: Publisher, Sendable {
    /// Any error the work throws.
    public typealias Failure = any Error

    /// How the work hands values to the subscriber.
    public struct Emitter: Sendable {
        let subscription: TaskSubscription<Output>

        /// Delivers `value` once the subscriber has demand; throws `CancellationError` if the
        /// subscription is cancelled first.
        public func send(_ value: Output) async throws {
            try await subscription.send(value)
        }

        /// Delivers `value` if the subscriber has demand now, else keeps only the latest such
        /// value until it does. For values that supersede each other, such as progress.
        public func offer(_ value: Output) {
            subscription.offer(value)
        }
    }

    private let work: @Sendable (Emitter) async throws -> Void

    /// A publisher that runs `work` for each subscription.
    public init(_ work: @escaping @Sendable (Emitter) async throws -> Void) {
        self.work = work
    }

    /// Attaches `subscriber`; nothing runs until it asks for a value.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
        let subscription = TaskSubscription(subscriber: subscriber, work: work)
        subscriber.receive(subscription: subscription)
    }
}
