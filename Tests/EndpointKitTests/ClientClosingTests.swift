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
        let (closing, result) = try await thirtySecondWait { closing, _ in closing.close() }
        guard case EndpointKitError.clientInvalidated? = result.error else { return XCTFail("\(result)") }
        do {
            try await closing.wait(30)
            XCTFail("waited after the client stopped")
        } catch EndpointKitError.clientInvalidated {}
    }

    func testCancellingEndsAWaitAtOnce() async throws {
        let (closing, result) = try await thirtySecondWait { _, waiting in waiting.cancel() }
        XCTAssertTrue(result.error is CancellationError, "\(result)")
        XCTAssertFalse(closing.isClosed)
    }

    /// A wait of 30 s that `end` ends after 50 ms, and how it ended.
    private func thirtySecondWait(
        endedBy end: (ClientClosing, Task<Void, any Error>) -> Void
    ) async throws -> (ClientClosing, Result<Void, any Error>) {
        let closing = ClientClosing()
        let waiting = Task { try await closing.wait(30) }
        try await Task.sleep(nanoseconds: 50_000_000)
        end(closing, waiting)
        return (closing, await waiting.result)
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
