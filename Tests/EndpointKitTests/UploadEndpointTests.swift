import Foundation
import XCTest

@_spi(Locking) @testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class UploadEndpointTests: ServerTestCase {
    override var routes: TestServer.Handler { TransferRoutes.handler }

    func testDataFileAndStreamBodiesArriveByteExact() async throws {
        let payload = TransferRoutes.bytes(0..<300_000)
        let file = temporaryFile(contents: payload)
        defer { try? FileManager.default.removeItem(at: file) }
        let bodies: [(String, UploadEndpointBody)] = [
            ("data", .data(payload)), ("file", .file(file)),
            ("stream", .stream { InputStream(data: payload) }),
        ]
        for (name, body) in bodies {
            let result = try await client.upload(Upload(body: body))
            XCTAssertEqual(result.received, payload.count, name)
            XCTAssertEqual(server.requests.last?.body, payload, name)
        }
        XCTAssertNil(server.requests.last?.header("Content-Length"), "a stream is sent chunked")
        XCTAssertNil(server.requests.last?.header("Expect"), "no 100-continue stall")
        XCTAssertEqual(server.requests.first?.header("Content-Length"), "300000")
    }

    func testEmptyBodyAndPutMethod() async throws {
        let result = try await client.upload(Upload(method: .put, body: .data(Data())))
        XCTAssertEqual(result.received, 0)
        XCTAssertEqual(server.requests.last?.method, "PUT")
    }

    func testAFiftyMegabyteFileUploadIsExactAndReportsProgress() async throws {
        let count: Int64 = 50 << 20
        let file = try patternFile(count: count)
        defer { try? FileManager.default.removeItem(at: file) }
        let log = ProgressLog()
        let result = try await client.upload(Upload(body: .file(file)), progress: log.handler)
        XCTAssertEqual(Int64(result.received), count)
        let received = try XCTUnwrap(server.requests.last?.body)
        XCTAssertEqual(received.count, Int(count))
        XCTAssertEqual(received, TransferRoutes.bytes(0..<count))
        XCTAssertTrue(log.isMonotonic(.upload))
        let uploads = log.reports.filter { $0.direction == .upload }
        XCTAssertGreaterThan(uploads.count, 2)
        XCTAssertEqual(uploads.last, TransferProgress(direction: .upload, completedBytes: count, totalBytes: count))
    }

    func testCompletionAPIProgressCountsUploadedBytes() async throws {
        let payload = TransferRoutes.bytes(0..<2_000_000)
        let box = Locked<Progress?>(nil)
        let result: Result<UploadResult, any Error> = await withCheckedContinuation { continuation in
            let progress = client.upload(Upload(body: .data(payload))) { continuation.resume(returning: $0) }
            box.withLock { $0 = progress }
        }
        XCTAssertEqual(try result.get().received, payload.count)
        let progress = try XCTUnwrap(box.withLock { $0 })
        XCTAssertEqual(progress.completedUnitCount, Int64(payload.count))
        XCTAssertEqual(progress.totalUnitCount, Int64(payload.count))
    }

    func testAMissingFileFailsBeforeSending() async throws {
        let missing = temporaryFile("missing")
        do {
            _ = try await client.upload(Upload(body: .file(missing)))
            XCTFail("expected an error")
        } catch EndpointKitError.invalidRequest(let endpoint, let underlying) {
            XCTAssertEqual(endpoint, "Upload")
            XCTAssertEqual((underlying as? CocoaError)?.code, .fileReadNoSuchFile)
        }
        XCTAssertTrue(server.requests.isEmpty)
    }

    func testStreamFactoryErrorFailsTheCall() async throws {
        struct NoStream: Error {}
        do {
            _ = try await client.upload(Upload(body: .stream { throw NoStream() }))
            XCTFail("expected an error")
        } catch {
            XCTAssertTrue(error is NoStream, "\(error)")
        }
    }

    func testRedirectReplaysEveryKindOfBody() async throws {
        let payload = Data("replayed body".utf8)
        let file = temporaryFile(contents: payload)
        defer { try? FileManager.default.removeItem(at: file) }
        var form = MultipartFormData()
        form.append("x", name: "field")
        for body in [UploadEndpointBody.data(payload), .file(file), .stream { InputStream(data: payload) }, .multipart(form)] {
            let endpoint = Upload(path: "redirect?status=307&to=/upload", body: body)
            let result = try await client.upload(endpoint)
            XCTAssertGreaterThan(result.received, 0)
            XCTAssertEqual(server.requests.last?.path, "/upload")
            XCTAssertEqual(server.requests.last?.body.isEmpty, false)
        }
    }

    func testCancellingMidUploadClosesTheConnection() async throws {
        let file = temporaryFile()
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        try FileHandle(forWritingTo: file).truncate(atOffset: 400 << 20)
        defer { try? FileManager.default.removeItem(at: file) }
        let (client, server) = (self.client!, self.server!)
        let sent = Locked<Int64>(0)
        let task = Task {
            try await client.upload(Upload(body: .file(file))) { report in sent.withLock { $0 = report.completedBytes } }
        }
        let started = await waitUntil(timeout: 10) { sent.withLock { $0 } > 1 << 20 }
        XCTAssertTrue(started)
        task.cancel()
        let result = await task.result
        XCTAssertTrue(result.error is CancellationError, "\(result)")
        let disconnected = await server.waitForDisconnect(of: "/upload")
        XCTAssertTrue(disconnected)
        XCTAssertLessThan(sent.withLock { $0 }, 400 << 20)
    }

    /// Cancels file, data and stream uploads at random moments: each call ends once, promptly.
    func testRandomCancellationOfUploads() async throws {
        let iterations = Int(ProcessInfo.processInfo.environment["UPLOAD_CANCEL_ITERATIONS"] ?? "") ?? 200
        let payload = TransferRoutes.bytes(0..<(4 << 20))
        // Above the 8 MiB limit, so a file goes as a stream on Linux; below it, from memory.
        let bigFile = try patternFile(count: 12 << 20)
        let smallFile = temporaryFile(contents: payload)
        defer {
            try? FileManager.default.removeItem(at: bigFile)
            try? FileManager.default.removeItem(at: smallFile)
        }
        let client = self.client!
        var cancelled = 0
        for iteration in 0..<iterations {
            let bodies: [(UploadEndpointBody, Int)] = [
                (.file(bigFile), 12 << 20), (.file(smallFile), payload.count), (.data(payload), payload.count),
                (.stream { InputStream(data: payload) }, payload.count),
            ]
            let (body, size) = bodies[iteration % bodies.count]
            let task = Task { try await client.upload(Upload(body: body)) }
            try await Task.sleep(nanoseconds: UInt64.random(in: 0...3_000_000))
            task.cancel()
            switch await task.result {
            case .success(let result): XCTAssertEqual(result.received, size)
            case .failure(let error):
                XCTAssertTrue(error is CancellationError, "\(error)")
                cancelled += 1
            }
        }
        XCTAssertGreaterThan(cancelled, 0)
    }
}
