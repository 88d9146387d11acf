@testable import EndpointKit
import XCTest

/// The retry waits a client's stopping ends: each ends once, with the right error, whichever
/// of its timer, its task's cancellation and the stopping comes first.
final class ClientClosingTests: XCTestCase {
    func testAWaitEndsWhenItsTimeIsUp() async throws {
        let closing = ClientClosing()
        let start = Date()
        try await closing.wait(0.05)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.05)
    }

    func testStoppingEndsAWaitAtOnceAndEveryLaterOne() async throws {
        let closing = ClientClosing()
        let waiting = Task { try await closing.wait(30) }
        try await Task.sleep(nanoseconds: 50_000_000)
        closing.close()
        let result = await waiting.result
        guard case EndpointKitError.clientInvalidated? = result.error else { return XCTFail("\(result)") }
        do {
            try await closing.wait(30)
            XCTFail("waited after the client stopped")
        } catch EndpointKitError.clientInvalidated {}
    }

    func testCancellingEndsAWaitAtOnce() async throws {
        let closing = ClientClosing()
        let waiting = Task { try await closing.wait(30) }
        try await Task.sleep(nanoseconds: 50_000_000)
        waiting.cancel()
        let result = await waiting.result
        XCTAssertTrue(result.error is CancellationError, "\(result)")
        XCTAssertFalse(closing.isClosed)
    }

    /// Timers, cancels and a stop at random against 2,000 waits: each ends, none hangs.
    func testRacesEndEveryWait() async throws {
        for round in 0..<20 {
            let closing = ClientClosing()
            let ended = await withTaskGroup(of: Int.self) { group in
                for index in 0..<100 {
                    let waiting = Task { try await closing.wait(Double(index % 3) * 0.001) }
                    group.addTask {
                        if index % 2 == 0 { waiting.cancel() }
                        _ = await waiting.result
                        return 1
                    }
                }
                group.addTask {
                    try? await Task.sleep(nanoseconds: UInt64.random(in: 0...2_000_000))
                    closing.close()
                    return 0
                }
                return await group.reduce(0, +)
            }
            XCTAssertEqual(ended, 100, "round \(round)")
        }
    }
}
