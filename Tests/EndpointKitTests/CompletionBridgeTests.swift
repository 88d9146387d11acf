import Foundation
import XCTest

@_spi(Transport) @testable import EndpointKit

/// The `Progress` a completion-handler call returns: moved only by the direction it counts,
/// only forward (a retry or a redirect starts counting from 0 again), claimed by one call.
final class CompletionBridgeTests: XCTestCase {
    func testProgressOnlyMovesForwardWhenAnAttemptStartsAgain() throws {
        let progress = Progress(totalUnitCount: -1)
        let reporter = CompletionBridge.Reporter(progress, counting: .upload)
        let report = try XCTUnwrap(reporter.claim())
        XCTAssertNil(reporter.claim(), "one call claims it")
        let total: Int64 = 1 << 20
        let quarter = total / 4
        // The first attempt sends three quarters, the second starts again and sends it all.
        let counts = [0, quarter, 2 * quarter, 3 * quarter, 0, quarter, 2 * quarter, 3 * quarter, total]
        var shown: [Int64] = []
        for completed in counts {
            report(TransferProgress(direction: .download, completedBytes: 7 * total, totalBytes: 7 * total))
            report(TransferProgress(direction: .upload, completedBytes: completed, totalBytes: total))
            shown.append(progress.completedUnitCount)
        }
        // The first attempt's count stays while the second catches up; downloads are not counted.
        XCTAssertEqual(shown, [0, quarter, 2 * quarter, 3 * quarter, 3 * quarter, 3 * quarter, 3 * quarter, 3 * quarter, total])
        XCTAssertEqual(progress.totalUnitCount, total)
    }

    func testAShorterAnswerAfterARetryDoesNotMoveItBack() throws {
        let progress = Progress(totalUnitCount: -1)
        let report = try XCTUnwrap(CompletionBridge.Reporter(progress, counting: .download).claim())
        // A body of unknown size breaks off at 800 KB; the retry's whole answer is 500 KB.
        report(TransferProgress(direction: .download, completedBytes: 800_000, totalBytes: nil))
        XCTAssertEqual(progress.completedUnitCount, 800_000)
        report(TransferProgress(direction: .download, completedBytes: 500_000, totalBytes: 500_000))
        XCTAssertEqual(progress.completedUnitCount, 800_000)
    }

    /// The returned `Progress` is the top of its own tree: it does not join a progress that the
    /// caller made current, whose units it would then hold back until the call ends. It joins
    /// one when added.
    func testTheReturnedProgressJoinsNoTreeUnlessAdded() {
        let parent = Progress(totalUnitCount: 10)
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let done = expectation(description: "the handler ran")
        parent.becomeCurrent(withPendingUnitCount: 10)
        let progress = CompletionBridge.start(on: .global(), { (_: Result<Int, any Error>) in done.fulfill() }) {
            for await _ in gate { break }
            return 7
        }
        parent.resignCurrent()
        // No child joined while it was current, so its pending units count as done at once.
        XCTAssertEqual(parent.completedUnitCount, 10, "the call's progress joined the one current on the caller's thread")
        open.yield()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(progress.fractionCompleted, 1)
        let other = Progress(totalUnitCount: 4)
        other.addChild(progress, withPendingUnitCount: 4)
        XCTAssertEqual(other.fractionCompleted, 1, "added as a child, it counts for its parent")
    }
}
