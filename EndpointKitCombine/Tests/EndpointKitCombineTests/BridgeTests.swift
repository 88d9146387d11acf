import EndpointKit
import EndpointKitCombine
import Foundation
import XCTest

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// AsyncSequence → Publisher → AsyncSequence, demand and cancellation both ways.
final class BridgeTests: XCTestCase {
    /// Counts, from `start`, how many elements were made and whether its iteration was cancelled.
    struct Counting: AsyncSequence, Sendable {
        typealias Element = Int
        let limit: Int
        let made = Counter()

        final class Counter: @unchecked Sendable {
            // Sound: behind `lock`.
            private let lock = NSLock()
            private var count = 0
            var value: Int { lock.withLock { count } }
            func next() -> Int { lock.withLock { defer { count += 1 }; return count } }
        }

        struct AsyncIterator: AsyncIteratorProtocol {
            let limit: Int
            let made: Counter
            mutating func next() async throws -> Int? {
                try Task.checkCancellation()
                let value = made.next()
                return value < limit ? value : nil
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(limit: limit, made: made) }
    }

    func testTenThousandElementsArriveInOrderAndThePublisherNeverGetsAhead() async throws {
        let source = Counting(limit: 10_000)
        var expected = 0
        var furthestAhead = 0
        for try await value in source.publisher.elements {
            XCTAssertEqual(value, expected)
            expected += 1
            furthestAhead = max(furthestAhead, source.made.value - expected)
        }
        XCTAssertEqual(expected, 10_000)
        XCTAssertLessThanOrEqual(furthestAhead, 1, "the bridge read ahead of the loop: buffering is unbounded")
    }

    func testLeavingTheLoopCancelsTheSubscription() async throws {
        let source = Counting(limit: .max)
        for try await value in source.publisher.elements where value == 5 { break }
        try await Task.sleep(nanoseconds: 100_000_000)
        let made = source.made.value
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(source.made.value, made, "the source kept being read after the loop ended")
        XCTAssertLessThanOrEqual(made, 8)
    }

    func testCancellingTheSequenceEndsAWaitingLoop() async throws {
        let subject = PassthroughSubject<Int, Never>()
        // A subject is not Sendable; this test only hands it to one task.
        nonisolated(unsafe) let elements = subject.elements
        let loop = Task {
            var seen: [Int] = []
            for try await value in elements { seen.append(value) }
            return seen
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        subject.send(1)
        try await Task.sleep(nanoseconds: 50_000_000)
        elements.cancel()
        let seen = try await loop.value
        XCTAssertEqual(seen, [1])
    }

    func testCancellingTheLoopingTaskCancelsTheRequest() async throws {
        let server = try await TestServer.start(Routes.standard)
        let client = URLSessionClient(baseURL: server.baseURL)
        let loop = Task {
            for try await _ in client.requestPublisher(SlowEndpoint(seconds: 30)).elements {}
        }
        let arrived = await waitUntil(timeout: 5) { server.requests.count == 1 }
        XCTAssertTrue(arrived)
        loop.cancel()
        _ = await loop.result
        let closed = await server.waitForDisconnect(of: "/slow")
        XCTAssertTrue(closed, "the server did not see the connection close")
        client.invalidate()
        await server.shutdown()
    }

    func testAPublisherFailureIsThrownByTheLoop() async throws {
        struct Boom: Error {}
        var seen: [Int] = []
        do {
            for try await value in [1, 2].publisher.setFailureType(to: Boom.self).append(Fail(error: Boom())).elements {
                seen.append(value)
            }
            XCTFail("expected Boom")
        } catch is Boom {}
        XCTAssertEqual(seen, [1, 2])
    }

    func testAnAsyncSequenceErrorFailsThePublisher() async throws {
        struct Boom: Error {}
        let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
        continuation.yield(1)
        continuation.finish(throwing: Boom())
        let events = Recorder<Int>()
        let cancellable = stream.publisher.sink(receiveCompletion: events.complete, receiveValue: events.value)
        let completion = try await events.completion()
        XCTAssertEqual(events.values, [1])
        guard case .failure(let error) = completion, error is Boom else { return XCTFail("\(completion)") }
        cancellable.cancel()
    }

    func testASlowSubscriberIsNeverFlooded() async throws {
        let source = Counting(limit: 1_000)
        let subscriber = ManualSubscriber<Int>()
        source.publisher.subscribe(subscriber)
        subscriber.request(3)
        let three = await waitUntil(timeout: 5) { subscriber.recorder.values.count == 3 }
        XCTAssertTrue(three)
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(subscriber.recorder.values, [0, 1, 2])
        XCTAssertLessThanOrEqual(source.made.value, 4, "the publisher pulled elements nobody asked for")
        subscriber.cancel()
    }
}
