import EndpointKit
import Foundation
import XCTest

/// Request bodies written by a producer while they are sent (``ProducedBody``), through
/// `upload` and through `stream`.
extension ClientScenarios {
    var producedBodyScenarios: [(String, @Sendable (TestServer, FaultRoutes) async throws -> Void)] {
        [
            ("produced body: sent as produced", producedBodySent), ("produced body: sent again, or once", producedBodyReplay),
            ("produced body: failure and cancellation", producedBodyFailure),
        ]
    }

    /// A POST of a produced body to `/echo`.
    struct ProducedUpload: UploadEndpoint {
        typealias Content = Echo
        let body: ProducedBody
        func makeRequest() throws -> (URLRequest, UploadEndpointBody) { (try URLRequest(.post, "echo"), .produced(body)) }
    }

    /// A body of two chunks whose producer waits, before the second, until the server has
    /// read the first (2 s at most); tells whether it had.
    static func twoChunks(_ server: TestServer, first: Data, second: Data) -> (ProducedBody, arrivedEarly: Guarded<Bool?>) {
        let arrivedEarly = Guarded<Bool?>(nil)
        let body = ProducedBody {
            let before = server.log.withLock { $0.bodyBytesArrived }
            return AsyncThrowingStream { continuation in
                let producer = Task {
                    continuation.yield(first)
                    let arrived = await waitUntil(timeout: 2) { server.log.withLock { $0.bodyBytesArrived } - before >= first.count }
                    arrivedEarly.withLock { $0 = arrived }
                    continuation.yield(second)
                    continuation.finish()
                }
                continuation.onTermination = { _ in producer.cancel() }
            }
        }
        return (body, arrivedEarly)
    }

    /// With the AsyncHTTPClient-backed client the first chunk reaches the server before the
    /// producer writes the second, chunked when no length is given; URLSessionClient reads the
    /// body first and sends it with its length (through a temporary file past 8 MiB, deleted
    /// after). Either way the server gets every byte, by `upload` and by `stream`.
    func producedBodySent(_ server: TestServer, _: FaultRoutes) async throws {
        let first = TransferRoutes.bytes(0..<10_000), second = TransferRoutes.bytes(10_000..<15_000)
        // Long enough for 9 MiB under Thread Sanitizer on a busy host; a hang still ends.
        try await with(server, Options(timeout: 30)) { client in
            let (body, arrivedEarly) = Self.twoChunks(server, first: first, second: second)
            let log = ProgressLog()
            let echo = try await client.upload(ProducedUpload(body: body), progress: log.handler)
            XCTAssertEqual(server.requests.last?.body, first + second, name)
            XCTAssertEqual(echo.bodyLength, 15_000, name)
            XCTAssertEqual(arrivedEarly.withLock { $0 }, sendsProducedBodiesAsProduced, "\(name): the first chunk went before the second was made")
            if sendsProducedBodiesAsProduced {
                XCTAssertEqual(echo.headers["transfer-encoding"], "chunked", name)
            } else {
                XCTAssertEqual(echo.headers["content-length"], "15000", name)
            }
            XCTAssertEqual(log.reports.last(where: { $0.direction == .upload })?.completedBytes, 15_000, name)

            // Through `stream`, with the length given.
            var known = Self.twoChunks(server, first: first, second: second).0
            known.length = 15_000
            var answer = Data()
            for try await chunk in try await client.stream(ProducedUpload(body: known)) { answer.append(chunk) }
            let streamed = try JSONDecoder().decode(Echo.self, from: answer)
            XCTAssertEqual(streamed.bodyLength, 15_000, name)
            XCTAssertEqual(streamed.headers["content-length"], "15000", name)
            XCTAssertEqual(server.requests.last?.body, first + second, name)

            // Past 8 MiB; no temporary file is left.
            let large = TransferRoutes.bytes(0..<(9 << 20))
            let leftovers = { (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))?.filter { $0.hasSuffix(".body") }.count }
            let before = leftovers()
            let big = try await client.upload(ProducedUpload(body: ProducedBody { AsyncThrowingStream { $0.yield(large); $0.finish() } }))
            XCTAssertEqual(big.bodyLength, large.count, name)
            XCTAssertEqual(server.requests.last?.body, large, name)
            XCTAssertEqual(leftovers(), before, "\(name): the temporary file was deleted")
        }
    }

    /// A body that can be made again is sent again by a retry and a 307; a one-shot body is
    /// sent once: its call is not retried, and a 307 is refused.
    func producedBodyReplay(_ server: TestServer, _ faults: FaultRoutes) async throws {
        let payload = TransferRoutes.bytes(0..<20_000)
        let made = Guarded(0)
        let again = ProducedBody {
            made.withLock { $0 += 1 }
            return AsyncThrowingStream { $0.yield(payload); $0.finish() }
        }
        var once = again
        once.canBeSentAgain = false
        try await with(server, Options(timeout: 10)) { client in
            let retried = try await client.upload(AttemptUpload(path: "flaky?key=produced&fail=1", body: .produced(again)))
            XCTAssertEqual(retried.attempt, 2, name)
            XCTAssertEqual(server.requests.filter { $0.path == "/flaky" }.map(\.body), [payload, payload], name)
            XCTAssertEqual(made.withLock { $0 }, 2, "\(name): made once for each attempt")

            do {
                _ = try await client.upload(AttemptUpload(path: "flaky?key=one-shot&fail=1", body: .produced(once)))
                XCTFail("\(name): a one-shot body was sent again")
            } catch {
                XCTAssertEqual(Self.kind(of: error), "503", name)
            }
            XCTAssertEqual(faults.count("one-shot"), 1, name)

            let redirected = try await client.upload(AttemptUpload(path: "redirect?status=307&to=/flaky%3Fkey%3Dmoved", body: .produced(again)))
            XCTAssertEqual(redirected.received, payload.count, name)
            do {
                _ = try await client.upload(AttemptUpload(path: "redirect?status=307&to=/flaky%3Fkey%3Dmoved-once", body: .produced(once)))
                XCTFail("\(name): a one-shot body was sent again after a 307")
            } catch EndpointKitError.redirectRefused {}
            XCTAssertEqual(faults.count("moved-once"), 0, name)
        }
    }

    /// The producer's error fails the call as it is; cancelling the task while the producer
    /// is still writing ends the call at once and tells the producer.
    func producedBodyFailure(_ server: TestServer, _: FaultRoutes) async throws {
        struct ProducerFailed: Error {}
        try await with(server, Options(timeout: 10)) { client in
            let failing = ProducedBody {
                AsyncThrowingStream { continuation in
                    continuation.yield(Data(repeating: 1, count: 1_000))
                    continuation.finish(throwing: ProducerFailed())
                }
            }
            do {
                _ = try await client.upload(ProducedUpload(body: failing))
                XCTFail("\(name): expected the producer's error")
            } catch {
                XCTAssertTrue(error is ProducerFailed, "\(name): \(error)")
            }

            // A producer that writes other than the length it declared: the call fails, saying so.
            for (declared, written) in [(2_000, 1_000), (500, 1_000)] {
                var wrong = ProducedBody { AsyncThrowingStream { $0.yield(Data(repeating: 4, count: written)); $0.finish() } }
                wrong.length = Int64(declared)
                do {
                    _ = try await client.upload(ProducedUpload(body: wrong))
                    XCTFail("\(name): a body of another length than declared was sent")
                } catch let mismatch as ProducedBody.LengthMismatch {
                    XCTAssertEqual(mismatch.declared, Int64(declared), name)
                } catch {
                    XCTFail("\(name): \(error)")
                }
            }

            let ended = Guarded(false)
            let sent = Guarded(false)
            let endless = ProducedBody {
                AsyncThrowingStream { continuation in
                    continuation.yield(Data(repeating: 2, count: 1_000))
                    sent.withLock { $0 = true }
                    continuation.onTermination = { _ in ended.withLock { $0 = true } }
                }
            }
            let task = Task { try await client.upload(ProducedUpload(body: endless)) }
            // Cancelled while the producer is still writing.
            _ = await waitUntil(timeout: 5) { sent.withLock { $0 } }
            try await Task.sleep(nanoseconds: 50_000_000)
            let start = Date()
            task.cancel()
            let result = await task.result
            XCTAssertLessThan(Date().timeIntervalSince(start), 2, name)
            XCTAssertTrue(result.error is CancellationError, "\(name): \(result)")
            let told = await waitUntil(timeout: 2) { ended.withLock { $0 } }
            XCTAssertTrue(told, "\(name): the producer's stream was ended")

            // Cancelled at random points (before, while and after the first chunk is sent):
            // every call ends, and every producer started is told (a call cancelled before its
            // body was asked for starts none).
            let endedCount = Guarded(0)
            let startedCount = Guarded(0)
            let calls = (0..<100).map { index in
                Task {
                    let body = ProducedBody {
                        startedCount.withLock { $0 += 1 }
                        return AsyncThrowingStream { continuation in
                            continuation.onTermination = { _ in endedCount.withLock { $0 += 1 } }
                            if index % 3 != 0 { continuation.yield(Data(repeating: 3, count: 4_000)) }
                        }
                    }
                    return try await client.upload(ProducedUpload(body: body))
                }
            }
            for call in calls {
                try await Task.sleep(nanoseconds: UInt64.random(in: 0...3_000_000))
                call.cancel()
            }
            for call in calls {
                let result = await call.result
                XCTAssertTrue(result.error is CancellationError, "\(name): \(result)")
            }
            let allTold = await waitUntil(timeout: 5) { endedCount.withLock { $0 } == startedCount.withLock { $0 } }
            XCTAssertTrue(allTold, "\(name): \(endedCount.withLock { $0 }) of \(startedCount.withLock { $0 }) producers told")
            XCTAssertGreaterThan(startedCount.withLock { $0 }, 0, "\(name): some calls started their body")
        }
    }
}
