import Foundation
import XCTest

@_spi(Locking) @testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class DownloadEndpointTests: ServerTestCase {
    override var routes: TestServer.Handler { TransferRoutes.handler }

    func testAFiftyMegabyteDownloadIsExactWithProgress() async throws {
        let count: Int64 = 50 << 20
        let log = ProgressLog()
        let file = try await client.download(Download(count: count), progress: log.handler)
        defer { try? FileManager.default.removeItem(at: file) }
        XCTAssertTrue(try fileMatchesPattern(file, count: count))
        XCTAssertTrue(log.isMonotonic(.download))
        XCTAssertGreaterThan(log.reports.count, 10)
        XCTAssertTrue(log.reports.allSatisfy { $0.totalBytes == count })
        XCTAssertEqual(log.reports.last, TransferProgress(direction: .download, completedBytes: count, totalBytes: count))
        XCTAssertEqual(server.requests.last?.header("Accept-Encoding"), "identity")
    }

    func testChunkedDownloadReportsAnUnknownTotalThenTheSize() async throws {
        let log = ProgressLog()
        let file = try await client.download(Download(path: "chunked", count: 1_000_000), progress: log.handler)
        defer { try? FileManager.default.removeItem(at: file) }
        XCTAssertTrue(try fileMatchesPattern(file, count: 1_000_000))
        XCTAssertNil(log.reports.first?.totalBytes)
        XCTAssertEqual(log.reports.last, TransferProgress(direction: .download, completedBytes: 1_000_000, totalBytes: 1_000_000))
    }

    func testCompletionAPIWithProgressObject() async throws {
        let box = Locked<Progress?>(nil)
        let result: Result<URL, any Error> = await withCheckedContinuation { continuation in
            box.withLock { $0 = client.download(Download(count: 3_000_000)) { continuation.resume(returning: $0) } }
        }
        let file = try result.get()
        defer { try? FileManager.default.removeItem(at: file) }
        XCTAssertTrue(try fileMatchesPattern(file, count: 3_000_000))
        XCTAssertEqual(box.withLock { $0 }?.completedUnitCount, 3_000_000)
        XCTAssertEqual(box.withLock { $0 }?.totalUnitCount, 3_000_000)
    }

    func testAnErrorStatusCarriesItsBodyAndLeavesNoFile() async throws {
        let before = leftoverTemporaryFiles()
        do {
            _ = try await client.download(Download(path: "status?code=404&body=gone", count: 1))
            XCTFail("expected an error")
        } catch let EndpointKitError.unacceptableStatus(failure) {
            XCTAssertEqual(failure.statusCode, 404)
            XCTAssertEqual(failure.bodyText, "gone")
        }
        XCTAssertEqual(leftoverTemporaryFiles().subtracting(before), [])
    }

    func testADroppedDownloadDeletesItsTemporaryFile() async throws {
        let before = leftoverTemporaryFiles()
        do {
            _ = try await client.download(Download(count: 2_000_000, drop: 1_000_000))
            XCTFail("expected an error")
        } catch EndpointKitError.transportFailed {}
        XCTAssertEqual(leftoverTemporaryFiles().subtracting(before), [])
    }

    /// Downloads `count` bytes into `target` from a server that drops the connection halfway:
    /// the download fails, keeping the first half and its record.
    private func downloadDroppedHalfway(_ count: Int64, into target: URL, weakTag: Bool = false) async throws {
        do {
            _ = try await client.download(Download(count: count, drop: count / 2, resumableFileURL: target, weakTag: weakTag))
            XCTFail("expected the drop to fail the download")
        } catch EndpointKitError.transportFailed {}
    }

    func testResumeAfterTheServerDroppedHalfway() async throws {
        let count: Int64 = 10 << 20
        let target = temporaryFile()
        defer {
            try? FileManager.default.removeItem(at: target)
            try? FileManager.default.removeItem(at: target.appendingPathExtension("resume"))
        }
        try await downloadDroppedHalfway(count, into: target)
        let kept = try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? NSNumber
        XCTAssertEqual(kept?.int64Value, count / 2)

        let log = ProgressLog()
        let file = try await client.download(Download(count: count, resumableFileURL: target), progress: log.handler)
        XCTAssertEqual(file, target)
        XCTAssertTrue(try fileMatchesPattern(file, count: count))
        let resumed = try XCTUnwrap(server.requests.last)
        XCTAssertEqual(resumed.header("Range"), "bytes=\(count / 2)-")
        XCTAssertEqual(resumed.header("If-Range"), "\"v1-\(count)\"")
        XCTAssertEqual(log.reports.first?.completedBytes ?? 0, count / 2 + 64 * 1024, accuracy: 64 * 1024)
        XCTAssertEqual(log.reports.last?.completedBytes, count)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.appendingPathExtension("resume").path))
    }

    /// A weak ETag cannot validate a range (RFC 9110, 13.1.5: a server compares If-Range
    /// strongly): the download resumes with the Last-Modified date instead.
    func testAWeakETagResumesWithTheDate() async throws {
        let count: Int64 = 4 << 20
        let target = temporaryFile()
        defer {
            try? FileManager.default.removeItem(at: target)
            try? FileManager.default.removeItem(at: target.appendingPathExtension("resume"))
        }
        try await downloadDroppedHalfway(count, into: target, weakTag: true)
        let file = try await client.download(Download(count: count, resumableFileURL: target, weakTag: true))
        XCTAssertTrue(try fileMatchesPattern(file, count: count))
        let resumed = try XCTUnwrap(server.requests.last)
        XCTAssertEqual(resumed.header("If-Range"), "Tue, 03 Nov 2026 10:00:00 GMT")
        XCTAssertEqual(resumed.header("Range"), "bytes=\(count / 2)-")
    }

    func testAServerThatIgnoresRangeStartsOver() async throws {
        let count: Int64 = 1 << 20
        let target = temporaryFile(contents: Data(repeating: 0xEE, count: 1000))
        try Data("\"v1-\(count)\"".utf8).write(to: target.appendingPathExtension("resume"))
        defer {
            try? FileManager.default.removeItem(at: target)
            try? FileManager.default.removeItem(at: target.appendingPathExtension("resume"))
        }
        let file = try await client.download(Download(path: "ignore-range", count: count, resumableFileURL: target))
        XCTAssertEqual(server.requests.last?.header("Range"), "bytes=1000-")
        XCTAssertTrue(try fileMatchesPattern(file, count: count))
    }

    func testCancellingMidDownloadCleansUpOrKeepsForResume() async throws {
        let (client, server) = (self.client!, self.server!)
        let before = leftoverTemporaryFiles()
        for resumable in [false, true] {
            let target = resumable ? temporaryFile() : nil
            let received = Locked<Int64>(0)
            let endpoint = Download(count: 100 << 20, delayMicroseconds: 2_000, resumableFileURL: target)
            let task = Task {
                try await client.download(endpoint) { report in received.withLock { $0 = report.completedBytes } }
            }
            let started = await waitUntil(timeout: 10) { received.withLock { $0 } > 256 * 1024 }
            XCTAssertTrue(started)
            task.cancel()
            let result = await task.result
            XCTAssertTrue(result.error is CancellationError, "\(result)")
            let disconnected = await server.waitForDisconnect(of: "/bytes", count: resumable ? 2 : 1)
            XCTAssertTrue(disconnected)
            if let target {
                let size = (try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? NSNumber)?.int64Value
                XCTAssertGreaterThan(size ?? 0, 0)
                XCTAssertTrue(FileManager.default.fileExists(atPath: target.appendingPathExtension("resume").path))
                try? FileManager.default.removeItem(at: target)
                try? FileManager.default.removeItem(at: target.appendingPathExtension("resume"))
            }
        }
        XCTAssertEqual(leftoverTemporaryFiles().subtracting(before), [])
    }
}
