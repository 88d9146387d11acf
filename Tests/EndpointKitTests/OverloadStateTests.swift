@_spi(Locking) @testable import EndpointKit
import XCTest

/// The state behind ``OverloadPolicy``, without a network: budgets, circuits and queues under
/// time and races.
final class OverloadStateTests: XCTestCase {
    private let second: UInt64 = 1_000_000_000

    func testTheBudgetAllowsItsShareOfRecentCallsAndForgetsOldOnes() {
        let ledger = RetryBudgetLedger(RetryBudget(ratio: 0.2, minimumPerSecond: 1, window: 10))
        let start: UInt64 = 1_000 * second
        for _ in 0..<100 { ledger.deposit(now: start) }
        // 20 % of 100, more than the floor of 1 a second over 10 s.
        let granted = (0..<100).filter { _ in ledger.withdraw(now: start) }.count
        XCTAssertEqual(granted, 20)
        // Ten seconds on, those calls and retries have left the window: the floor remains, 10.
        let later = (0..<100).filter { _ in ledger.withdraw(now: start + 11 * second) }.count
        XCTAssertEqual(later, 10)
    }

    func testACircuitOpensOnItsRatioOrARunProbesAndClosesOrOpensAgain() {
        let board = CircuitBoard(CircuitBreaker(failureRatio: 0.5, minimumCalls: 4, window: 10, consecutiveFailures: 3, openDuration: 1, probes: 2))
        let host = "api:443"
        var now: UInt64 = 100 * second
        // Under the minimum throughput the ratio does not count; 3 failures in a row do.
        XCTAssertNil(board.record(.success, host: host, admission: .pass, now: now))
        XCTAssertNil(board.record(.failure, host: host, admission: .pass, now: now))
        XCTAssertNil(board.record(.failure, host: host, admission: .pass, now: now))
        XCTAssertEqual(board.record(.failure, host: host, admission: .pass, now: now), .opened)
        XCTAssertEqual(board.admit(host, now: now), .reject(until: now + second))
        // A call admitted before the circuit opened changes nothing when it ends.
        XCTAssertNil(board.record(.failure, host: host, admission: .pass, now: now))
        now += second
        XCTAssertEqual(board.admit(host, now: now), .probe(round: now))
        XCTAssertEqual(board.admit(host, now: now), .probe(round: now))
        if case .reject = board.admit(host, now: now) {} else { XCTFail("a third probe went through") }
        XCTAssertNil(board.record(.success, host: host, admission: .probe(round: now), now: now))
        XCTAssertEqual(board.record(.success, host: host, admission: .probe(round: now), now: now), .closed)
        XCTAssertEqual(board.admit(host, now: now), .pass)
        // Open again; a failed probe opens it for another period; a cancelled probe frees its place.
        for _ in 0..<3 { _ = board.record(.failure, host: host, admission: .pass, now: now) }
        now += second
        XCTAssertEqual(board.admit(host, now: now), .probe(round: now))
        XCTAssertNil(board.record(.uncounted, host: host, admission: .probe(round: now), now: now))
        XCTAssertEqual(board.admit(host, now: now), .probe(round: now))
        XCTAssertEqual(board.record(.failure, host: host, admission: .probe(round: now), now: now), .opened)
        XCTAssertEqual(board.admit(host, now: now + second / 2), .reject(until: now + second))
        // By ratio: 2 failures of 4 with the run broken by successes.
        let other = "other:80"
        for outcome in [CircuitBoard.Outcome.failure, .success, .failure] {
            XCTAssertNil(board.record(outcome, host: other, admission: .pass, now: now))
        }
        XCTAssertNil(board.record(.success, host: other, admission: .pass, now: now))
        XCTAssertEqual(board.record(.failure, host: other, admission: .pass, now: now), .opened)
    }

    /// Probes that hang hold a half-open circuit for a window at most: the next call then
    /// probes in their place, and the late answers of the old round change nothing.
    func testProbesUnansweredForAWindowGiveWayToANewProbe() {
        let board = CircuitBoard(CircuitBreaker(minimumCalls: 100, window: 10, consecutiveFailures: 1, openDuration: 1))
        let host = "hangs:80"
        var now: UInt64 = 100 * second
        XCTAssertEqual(board.record(.failure, host: host, admission: .pass, now: now), .opened)
        now += second
        let stuck = board.admit(host, now: now)
        XCTAssertEqual(stuck, .probe(round: now))
        XCTAssertEqual(board.admit(host, now: now + 9 * second), .reject(until: now + 9 * second + second / 10))
        let later = now + 10 * second
        XCTAssertEqual(board.admit(host, now: later), .probe(round: later))
        XCTAssertNil(board.record(.failure, host: host, admission: stuck, now: later))
        XCTAssertNil(board.record(.success, host: host, admission: stuck, now: later))
        if case .reject = board.admit(host, now: later) {} else { XCTFail("a second probe went through") }
        XCTAssertEqual(board.record(.success, host: host, admission: .probe(round: later), now: later), .closed)
        XCTAssertEqual(board.admit(host, now: later), .pass)
    }

    /// A client that calls ever new hosts (webhooks, a host per tenant) keeps state for the hosts
    /// it called lately only: a host not called for the window starts afresh, and is forgotten.
    func testACircuitForgetsAHostNotCalledForItsWindow() {
        let board = CircuitBoard(CircuitBreaker(minimumCalls: 100, window: 10, consecutiveFailures: 3, openDuration: 1))
        var now: UInt64 = 100 * second
        // A run of failures is broken by a window without calls.
        for _ in 0..<2 { XCTAssertNil(board.record(.failure, host: "run:80", admission: .pass, now: now)) }
        XCTAssertNil(board.record(.failure, host: "run:80", admission: .pass, now: now + 11 * second))
        XCTAssertEqual(board.record(.failure, host: "run:80", admission: .pass, now: now + 11 * second), nil)
        XCTAssertEqual(board.record(.failure, host: "run:80", admission: .pass, now: now + 11 * second), .opened)
        // An open circuit half-opens after its open time; not called for a window more, it is closed afresh.
        for _ in 0..<3 { _ = board.record(.failure, host: "open:80", admission: .pass, now: now) }
        XCTAssertEqual(board.admit("open:80", now: now + 10 * second), .probe(round: now + 10 * second))
        for _ in 0..<3 { _ = board.record(.failure, host: "again:80", admission: .pass, now: now) }
        XCTAssertEqual(board.admit("again:80", now: now + 12 * second), .pass)
        // 10,000 hosts called once; a window later, they are forgotten as 10,000 new hosts come.
        for index in 0..<10_000 { _ = board.record(.success, host: "tenant-\(index):443", admission: .pass, now: now) }
        XCTAssertGreaterThanOrEqual(board.hostCount, 10_000)
        now += 11 * second
        for index in 0..<10_000 { _ = board.record(.success, host: "later-\(index):443", admission: .pass, now: now) }
        XCTAssertLessThanOrEqual(board.hostCount, 10_100)
    }

    /// 200 rounds of 50 calls through a limit of 4 in flight, a random half of them cancelled
    /// at a random moment: no call is stuck, a cancelled waiter never takes a place, and every
    /// place is given back (the next call enters at once).
    /// Cancels and timeouts racing the places given back never lose or add a place.
    func testQueuedCallsSurviveRandomCancellationAndTimeouts() async throws {
        let queues = HostQueues(ConcurrencyLimit(maximumInFlight: 4, maximumQueued: 1_000))
        let inside = Locked((now: 0, most: 0))
        for _ in 0..<200 {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<50 {
                    let call = Task {
                        _ = try await queues.enter("host", within: Bool.random() ? nil : Double.random(in: 0...0.000_3))
                        inside.withLock { $0 = (now: $0.now + 1, most: max($0.most, $0.now + 1)) }
                        try? await Task.sleep(nanoseconds: UInt64.random(in: 0...200_000))
                        inside.withLock { $0.now -= 1 }
                        queues.leave("host")
                    }
                    if Bool.random() {
                        group.addTask {
                            try? await Task.sleep(nanoseconds: UInt64.random(in: 0...300_000))
                            call.cancel()
                            _ = await call.result
                        }
                    } else {
                        group.addTask { _ = await call.result }
                    }
                }
            }
        }
        XCTAssertEqual(inside.withLock { $0.most }, 4)
        XCTAssertEqual(inside.withLock { $0.now }, 0)
        for _ in 0..<4 {
            let waited = try await queues.enter("host")
            XCTAssertFalse(waited, "a place was never given back")
        }
    }

    /// A call waits in the queue no longer than its time limit, then fails naming its URL; the
    /// place it waited for goes to the next call.
    func testAQueuedCallTimesOut() async throws {
        let queues = HostQueues(ConcurrencyLimit(maximumInFlight: 1))
        let url = URL(string: "http://host/late")
        _ = try await queues.enter("host")
        let start = Date()
        do {
            _ = try await queues.enter("host", within: 0.2, url: url)
            XCTFail("entered past the limit")
        } catch EndpointKitError.timedOut(let failed, let limit) {
            XCTAssertEqual(failed, url)
            XCTAssertEqual(limit, 0.2)
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.2)
        queues.leave("host")
        let waited = try await queues.enter("host", within: 0.2)
        XCTAssertFalse(waited, "the timed-out call kept a place")
    }

    func testAFullQueueRefusesAtOnce() async throws {
        let queues = HostQueues(ConcurrencyLimit(maximumInFlight: 1, maximumQueued: 0))
        _ = try await queues.enter("host")
        do {
            _ = try await queues.enter("host")
            XCTFail("entered past the limit")
        } catch let error as EndpointKitError {
            guard case .tooManyCalls(let host, let limit) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(host, "host")
            XCTAssertEqual(limit, 1)
            XCTAssertEqual(error.description, "host already has 1 call in flight and its queue is full: not sent")
        }
        queues.leave("host")
        let waited = try await queues.enter("host")
        XCTAssertFalse(waited)
    }

    func testStoppingFailsEveryWaitingCallAndEveryLaterOne() async throws {
        let queues = HostQueues(ConcurrencyLimit(maximumInFlight: 1, maximumQueued: 10))
        _ = try await queues.enter("host")
        let waiting = (0..<3).map { _ in Task { try await queues.enter("host") } }
        try await Task.sleep(nanoseconds: 50_000_000)
        queues.close()
        for task in waiting {
            let result = await task.result
            guard case EndpointKitError.clientInvalidated? = result.error else { return XCTFail("\(result)") }
        }
        do {
            _ = try await queues.enter("host")
            XCTFail("waited after the client stopped")
        } catch EndpointKitError.clientInvalidated {}
        // The call in flight gives its place back as ever.
        queues.leave("host")
        let waited = try await queues.enter("host")
        XCTAssertFalse(waited)
    }

    func testADeadlineIsTheSoonerOfTheCurrentOneAndTheNew() async {
        XCTAssertNil(CallDeadline.current)
        await CallDeadline.within(10) {
            let outer = CallDeadline.current
            XCTAssertEqual(outer?.remaining ?? 0, 10, accuracy: 0.5)
            await CallDeadline.within(60) { XCTAssertEqual(CallDeadline.current, outer) }
            await CallDeadline.within(1) { XCTAssertEqual(CallDeadline.current?.remaining ?? 0, 1, accuracy: 0.5) }
        }
        XCTAssertTrue(CallDeadline.after(0).hasPassed)
    }

    func testTheHedgeDelayIsAPercentileOfTheLatestAnswersOnceThereAreEnough() {
        let record = LatencyRecord()
        for index in 0..<19 { record.add(Double(index) / 1000, host: "a") }
        XCTAssertNil(record.percentile(0.95, host: "a"), "fewer than 20 answers")
        record.add(0.5, host: "a")
        XCTAssertEqual(record.percentile(0.95, host: "a"), 0.5)
        XCTAssertEqual(record.percentile(0.5, host: "a"), 0.010)
        XCTAssertNil(record.percentile(0.5, host: "b"))
        // Only the latest 200 count.
        for _ in 0..<200 { record.add(0.001, host: "a") }
        XCTAssertEqual(record.percentile(0.99, host: "a"), 0.001)
    }

    /// Answer times older than the record keeps them are not a host's latency; the hosts they
    /// belong to are forgotten as new hosts come.
    func testTheLatencyRecordForgetsHostsNotAnsweringLately() {
        let record = LatencyRecord()
        var now: UInt64 = 100 * second
        for _ in 0..<20 { record.add(0.2, host: "a", now: now) }
        XCTAssertEqual(record.percentile(0.5, host: "a", now: now + 299 * second), 0.2)
        XCTAssertNil(record.percentile(0.5, host: "a", now: now + 301 * second))
        for index in 0..<10_000 { record.add(0.1, host: "tenant-\(index)", now: now) }
        XCTAssertGreaterThanOrEqual(record.hostCount, 10_000)
        now += 301 * second
        for index in 0..<10_000 { record.add(0.1, host: "later-\(index)", now: now) }
        XCTAssertLessThanOrEqual(record.hostCount, 10_100)
    }
}
