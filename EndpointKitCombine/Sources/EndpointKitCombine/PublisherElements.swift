@_spi(Locking) import EndpointKit
#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// A publisher's values as an `AsyncSequence`: each iterator subscribes, asks for one value per
/// `next()` (the publisher never gets ahead of the loop), and ends with the publisher's
/// completion. Leaving the loop, or cancelling the iterating task, cancels the subscription;
/// ``cancel()``, or the publisher cancelling, ends the loop.
public struct PublisherElements<Upstream: Publisher>: AsyncSequence where Upstream.Output: Sendable {
    /// The publisher's values.
    public typealias Element = Upstream.Output

    let upstream: Upstream
    private let subscribers = Locked<[ElementSubscriber<Upstream.Output, Upstream.Failure>]>([])

    init(_ upstream: Upstream) {
        self.upstream = upstream
    }

    /// Cancels the subscriptions of this sequence's iterators; their loops end.
    public func cancel() {
        for subscriber in subscribers.withLock({ $0 }) { subscriber.cancel() }
    }

    /// Subscribes to the publisher.
    public func makeAsyncIterator() -> AsyncIterator {
        let subscriber = ElementSubscriber<Upstream.Output, Upstream.Failure>()
        subscribers.withLock { $0.append(subscriber) }
        upstream.subscribe(subscriber)
        return AsyncIterator(subscriber: subscriber, lifetime: Lifetime(subscriber))
    }

    /// Yields the publisher's values; `nil` once it finished or was cancelled.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let subscriber: ElementSubscriber<Upstream.Output, Upstream.Failure>
        let lifetime: Lifetime

        /// The next value: asks the publisher for exactly one.
        public mutating func next() async throws -> Upstream.Output? {
            try await subscriber.next()
        }
    }

    /// Cancels the subscription when the iterator is gone (the loop was left). The subscriber
    /// cannot do it itself: the subscription keeps it alive.
    final class Lifetime: Sendable {
        let subscriber: ElementSubscriber<Upstream.Output, Upstream.Failure>
        init(_ subscriber: ElementSubscriber<Upstream.Output, Upstream.Failure>) { self.subscriber = subscriber }
        deinit { subscriber.cancel() }
    }
}

extension PublisherElements: Sendable where Upstream: Sendable {}

extension Publisher where Output: Sendable {
    /// The publisher's values as an `AsyncSequence`, one demanded per loop turn; see
    /// ``PublisherElements``.
    public var elements: PublisherElements<Self> {
        PublisherElements(self)
    }
}
