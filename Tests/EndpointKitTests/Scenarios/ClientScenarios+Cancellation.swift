import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A cancel takes effect at once: no byte is written or counted after it, whatever the
/// transport still has queued, and a download keeps what it wrote for the next one to resume.
extension ClientScenarios {
    var cancellationScenarios: [(String, @Sendable (TestServer, FaultRoutes) async throws -> Void)] {
        [
            ("cancel mid-body of a fast download", cancelFastDownload),
            ("cancel mid-upload from the progress handler", cancelUploadFromProgress),
            ("time limits racing answers and cancels", timeLimitsRacingAnswers),
            ("time limits of different lengths side by side", timeLimitsOfDifferentLengths),
        ]
    }

    /// Cancels a fast loopback download (hundreds of MB/s) at 16 MB, from its progress handler
    /// (by cancelling the task, then with `TransferProgress.cancel()`), then downloads again: the
    /// second asks for exactly the bytes after those kept.
    func cancelFastDownload(_ server: TestServer, _: FaultRoutes) async throws {
        for byHandler in [false, true] {
            try await cancelFastDownload(server, byHandler: byHandler)
        }
    }

    private func cancelFastDownload(_ server: TestServer, byHandler: Bool) async throws {
        let count: Int64 = 128 << 20
        let target = temporaryFile()
        defer {
            try? FileManager.default.removeItem(at: target)
            try? FileManager.default.removeItem(at: target.appendingPathExtension("resume"))
        }
        let name = "\(self.name), cancelled by \(byHandler ? "TransferProgress.cancel()" : "Task.cancel()")"
        try await with(server) { client in
            let log = CancelLog()
            let endpoint = Download(count: count, resumableFileURL: target)
            let task = Task {
                _ = try await client.download(endpoint) { report in
                    if log.record(report.completedBytes, cancelAt: 16 << 20) {
                        if byHandler { report.cancel() } else { log.task.withLock { $0?.cancel() } }
                    }
                }
            }
            log.task.withLock { $0 = task }
            let result = await task.result
            XCTAssertTrue(result.error is CancellationError, "\(name): \(result)")
            let (counted, late) = log.state.withLock { ($0.countedAtCancel, $0.late) }
            XCTAssertGreaterThanOrEqual(counted, 16 << 20, name)
            XCTAssertEqual(late, 0, "\(name): progress reported after the cancel")
            // Writes still queued at the cancel may be skipped: the file is an exact prefix of
            // what was counted (checked below by the resumed download matching the pattern).
            let kept = (try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? NSNumber)?.int64Value ?? 0
            XCTAssertLessThanOrEqual(kept, counted, "\(name): no byte after the cancel is on disk")
            XCTAssertTrue(FileManager.default.fileExists(atPath: target.appendingPathExtension("resume").path), name)
            // What is still arriving from the cancelled transfer must not touch the file now.
            try await Task.sleep(nanoseconds: 300_000_000)
            let still = (try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? NSNumber)?.int64Value ?? 0
            XCTAssertEqual(still, kept, name)

            let resumed = try await client.download(Download(count: count, resumableFileURL: target))
            XCTAssertEqual(server.requests.last?.header("Range"), kept > 0 ? "bytes=\(kept)-" : nil, name)
            XCTAssertTrue(try fileMatchesPattern(resumed, count: count), name)
        }
    }

    /// Cancels a 64 MB upload with `TransferProgress.cancel()` at 8 MB: nothing is reported after.
    func cancelUploadFromProgress(_ server: TestServer, _: FaultRoutes) async throws {
        let payload = Data(count: 64 << 20)
        try await with(server) { client in
            let log = CancelLog()
            let task = Task {
                _ = try await client.upload(Upload(body: .data(payload))) { report in
                    if report.direction == .upload, log.record(report.completedBytes, cancelAt: 8 << 20) { report.cancel() }
                }
            }
            log.task.withLock { $0 = task }
            let result = await task.result
            XCTAssertTrue(result.error is CancellationError, "\(name): \(result)")
            XCTAssertEqual(log.state.withLock { $0.late }, 0, "\(name): progress reported after the cancel")
        }
    }

    /// Calls and streams whose time limit (1 to 4 ms) falls about when their answer comes, some
    /// also cancelled at random: each ends with its answer, `timedOut` naming its limit, or
    /// `CancellationError`, at once; a timer firing as the answer ends, or after a cancel,
    /// changes nothing else. Then the same client answers a call with room to spare.
    func timeLimitsRacingAnswers(_ server: TestServer, _: FaultRoutes) async throws {
        let outcomes = Guarded([String: Int]())
        for milliseconds in 1...4 {
            let limit = Double(milliseconds) / 1000
            try await with(server, Options(timeout: limit)) { client in
                for iteration in 0..<75 {
                    let task = Task {
                        if iteration % 3 == 0 {
                            for try await _ in try await client.stream(PathEndpoint(path: "books/1")) {}
                        } else {
                            _ = try await client.request(GetBook())
                        }
                    }
                    if iteration % 2 == 0 {
                        try await Task.sleep(nanoseconds: UInt64.random(in: 0...3_000_000))
                        task.cancel()
                    }
                    let started = Date()
                    let outcome: String
                    switch await task.result {
                    case .success: outcome = "answered"
                    case .failure(is CancellationError): outcome = "cancelled"
                    case .failure(EndpointKitError.timedOut(_, let reported)):
                        XCTAssertEqual(reported, limit, name)
                        outcome = "timed out"
                    case .failure(let error): return XCTFail("\(name): \(limit) s, \(iteration): \(error)")
                    }
                    XCTAssertLessThan(Date().timeIntervalSince(started), 2, "\(name): \(limit) s, \(iteration)")
                    outcomes.withLock { $0[outcome, default: 0] += 1 }
                }
            }
        }
        XCTAssertEqual(outcomes.withLock { $0.values.reduce(0, +) }, 300, "\(name): \(outcomes.withLock { $0 })")
        try await with(server, Options(timeout: 5)) { client in
            let book = try await client.request(GetBook())
            XCTAssertEqual(book.id, 1, name)
        }
    }

    /// Calls on one client with time limits of different lengths: one with 30 s, answered
    /// after 2 s, then three that end sooner (0.6 s, 0.3 s, 0.9 s, each to a server that
    /// answers after 5 s) while it waits. Each short one fails at its own limit, naming it, and
    /// the long one is answered: a limit that ends before those already running is not kept
    /// waiting for theirs, nor one that ends after another that passed.
    func timeLimitsOfDifferentLengths(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await with(server, Options(timeout: 30, overload: .none)) { client in
            let long = Task { try await client.request(AttemptEndpoint(path: "/hold?key=long&seconds=2")) }
            let arrived = await waitUntil(timeout: 5) { faults.count("long") == 1 }
            XCTAssertTrue(arrived, name)
            let started = Date()
            let limits = await withTaskGroup(of: TimeInterval?.self) { group in
                for (key, limit) in [("later", 0.6), ("sooner", 0.3), ("last", 0.9)] {
                    group.addTask {
                        do {
                            _ = try await client.request(AttemptEndpoint(path: "/hold?key=\(key)&seconds=5", timeout: limit))
                            return nil
                        } catch EndpointKitError.timedOut(_, let reported) {
                            return reported
                        } catch {
                            return -1
                        }
                    }
                    try? await Task.sleep(nanoseconds: 50_000_000)
                }
                return await group.reduce(into: [TimeInterval?]()) { $0.append($1) }
            }
            XCTAssertEqual(limits.compactMap { $0 }.sorted(), [0.3, 0.6, 0.9], name)
            XCTAssertLessThan(Date().timeIntervalSince(started), 3, "\(name): a short limit waited for a longer one")
            let answer = try await long.value
            XCTAssertEqual(answer.attempt, 1, name)
        }
    }
}

/// Tells a progress handler when to cancel its call (once `cancelAt` bytes have moved), and
/// counts the reports that come after.
final class CancelLog: Sendable {
    struct State {
        var countedAtCancel: Int64 = 0
        var cancelled = false
        var late = 0
    }

    let state = Guarded(State())
    let task = Guarded<Task<Void, any Error>?>(nil)

    /// Records a report; `true` when the handler should cancel now.
    func record(_ bytes: Int64, cancelAt threshold: Int64) -> Bool {
        state.withLock { state -> Bool in
            if state.cancelled {
                state.late += 1
                return false
            }
            state.countedAtCancel = bytes
            guard bytes >= threshold, task.withLock({ $0 != nil }) else { return false }
            state.cancelled = true
            return true
        }
    }
}
