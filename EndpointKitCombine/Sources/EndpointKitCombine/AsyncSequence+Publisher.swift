#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// This sequence as a publisher: each subscription iterates it in a task, taking the next
    /// element only when the subscriber wants one (so a slow subscriber is never flooded), and
    /// ends with `.finished` or the sequence's error. Cancelling the subscription cancels the
    /// iterating task.
    public var publisher: TaskPublisher<Element> {
        TaskPublisher { emitter in
            for try await element in self { try await emitter.send(element) }
        }
    }
}
