import Foundation
import XCTest

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// Records what a subscriber receives, for assertions.
final class Recorder<Value>: @unchecked Sendable {
    // Sound: all state is behind `lock`.
    private let lock = NSLock()
    private var received: [Value] = []
    private var ended: Subscribers.Completion<any Error>?
    private var stopped = false
    private var late = false

    var values: [Value] { lock.withLock { received } }
    var isEmpty: Bool { lock.withLock { received.isEmpty && ended == nil } }
    /// Whether anything arrived after ``stop()``.
    var receivedAfterStop: Bool { lock.withLock { late } }

    func value(_ value: Value) {
        lock.withLock {
            if stopped { late = true }
            received.append(value)
        }
    }

    func complete(_ completion: Subscribers.Completion<any Error>) {
        lock.withLock {
            if stopped { late = true }
            ended = completion
        }
    }

    /// Marks the moment after which nothing should arrive.
    func stop() {
        lock.withLock { stopped = true }
    }

    /// Waits for the completion (10 s at most).
    func completion() async throws -> Subscribers.Completion<any Error> {
        let done = await waitUntil(timeout: 10) { self.lock.withLock { self.ended != nil } }
        XCTAssertTrue(done, "no completion within 10 s")
        return try XCTUnwrap(lock.withLock { ended })
    }
}

/// A subscriber that asks for values only when told to.
final class ManualSubscriber<Value>: Subscriber, @unchecked Sendable {
    typealias Input = Value
    typealias Failure = any Error
    // Sound: `subscription` is behind `lock`; the recorder has its own.
    private let lock = NSLock()
    private var subscription: (any Subscription)?
    let recorder = Recorder<Value>()

    func receive(subscription: any Subscription) { lock.withLock { self.subscription = subscription } }
    func receive(_ input: Value) -> Subscribers.Demand {
        recorder.value(input)
        return .none
    }
    func receive(completion: Subscribers.Completion<any Error>) { recorder.complete(completion) }
    func request(_ count: Int) { lock.withLock { subscription }?.request(.max(count)) }
    func cancel() { lock.withLock { subscription }?.cancel() }
}
