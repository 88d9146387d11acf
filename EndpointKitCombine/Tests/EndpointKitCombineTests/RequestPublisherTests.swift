import EndpointKit
import EndpointKitCombine
import Foundation
import XCTest

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// Client calls as publishers, against the in-process server.
final class RequestPublisherTests: XCTestCase {
    var server: TestServer!
    var client: URLSessionClient!

    override func setUp() async throws {
        server = try await TestServer.start(FaultRoutes().handler)
        client = URLSessionClient(baseURL: server.baseURL)
    }

    override func tearDown() async throws {
        client.invalidate()
        await server.shutdown()
    }

    func testOneValueThenFinished() async throws {
        let events = Recorder<Book>()
        let cancellable = client.requestPublisher(GetBook()).sink(receiveCompletion: events.complete, receiveValue: events.value)
        let completion = try await events.completion()
        XCTAssertEqual(events.values, [Routes.books[0]])
        guard case .finished = completion else { return XCTFail("\(completion)") }
        cancellable.cancel()
    }

    func testTheErrorOnceAndNoValue() async throws {
        let events = Recorder<Void>()
        let cancellable = client.requestPublisher(PathEndpoint(path: "status", query: [.init(name: "code", value: "404")]))
            .sink(receiveCompletion: events.complete, receiveValue: events.value)
        let completion = try await events.completion()
        XCTAssertEqual(events.values.count, 0)
        guard case .failure(let error) = completion else { return XCTFail("expected a failure") }
        XCTAssertEqual((error as? EndpointKitError)?.statusCode, 404, "\(error)")
        cancellable.cancel()
    }

    func testNothingIsSentUntilTheSubscriberAsks() async throws {
        let subscriber = ManualSubscriber<Book>()
        client.requestPublisher(GetBook()).subscribe(subscriber)
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertEqual(server.requests.count, 0, "subscribing alone sent a request")
        subscriber.request(1)
        let completion = try await subscriber.recorder.completion()
        XCTAssertEqual(subscriber.recorder.values, [Routes.books[0]])
        guard case .finished = completion else { return XCTFail("\(completion)") }
        XCTAssertEqual(server.requests.count, 1)
    }

    func testCancellingBeforeTheFirstDemandSendsNothing() async throws {
        for _ in 0..<50 {
            let subscriber = ManualSubscriber<Book>()
            client.requestPublisher(GetBook()).subscribe(subscriber)
            subscriber.cancel()
            subscriber.request(1)
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertEqual(server.requests.count, 0)
    }

    func testCancellingMidRequestClosesTheConnection() async throws {
        let events = Recorder<Void>()
        let cancellable = client.requestPublisher(SlowEndpoint(seconds: 30))
            .sink(receiveCompletion: events.complete, receiveValue: events.value)
        let server = self.server!
        let arrived = await waitUntil(timeout: 5) { server.requests.count == 1 }
        XCTAssertTrue(arrived)
        cancellable.cancel()
        let closed = await server.waitForDisconnect(of: "/slow")
        XCTAssertTrue(closed, "the server did not see the connection close")
        XCTAssertTrue(events.isEmpty, "a cancelled subscription received \(events.values.count) values or a completion")
    }

    func testRandomCancellationNeverDeliversAfterCancel() async throws {
        for _ in 0..<200 {
            let events = Recorder<Book>()
            let cancellable = client.requestPublisher(GetBook()).sink(receiveCompletion: events.complete, receiveValue: events.value)
            try await Task.sleep(nanoseconds: UInt64.random(in: 0...2_000_000))
            cancellable.cancel()
            // A delivery already under way when cancel() ran may still land; nothing after it.
            try await Task.sleep(nanoseconds: 5_000_000)
            events.stop()
            try await Task.sleep(nanoseconds: 5_000_000)
            XCTAssertFalse(events.receivedAfterStop, "an event arrived after the subscription was cancelled")
        }

    }

    func testManySubscribersEachMakeTheirOwnRequest() async throws {
        let publisher = client.requestPublisher(GetBook())
        let recorders = (0..<50).map { _ in Recorder<Book>() }
        let cancellables = recorders.map { events in publisher.sink(receiveCompletion: events.complete, receiveValue: events.value) }
        for events in recorders {
            _ = try await events.completion()
            XCTAssertEqual(events.values, [Routes.books[0]])
        }
        XCTAssertEqual(server.requests.count, 50)
        cancellables.forEach { $0.cancel() }
    }

    func testDownloadEmitsProgressThenTheFile() async throws {
        let count: Int64 = 4 << 20
        let events = Recorder<TransferEvent<URL>>()
        let cancellable = client.downloadPublisher(Download(count: count))
            .sink(receiveCompletion: events.complete, receiveValue: events.value)
        let completion = try await events.completion()
        guard case .finished = completion else { return XCTFail("\(completion)") }
        let values = events.values
        let progress = values.compactMap { if case .progress(let p) = $0 { p.completedBytes } else { nil } }
        XCTAssertFalse(progress.isEmpty, "no progress before the file")
        XCTAssertEqual(progress, progress.sorted(), "progress is monotonic")
        let file = try XCTUnwrap(values.last?.content, "the last value is the file")
        XCTAssertEqual(values.compactMap(\.content).count, 1)
        XCTAssertTrue(try fileMatchesPattern(file, count: count))
        try? FileManager.default.removeItem(at: file)
        cancellable.cancel()
    }

    func testUploadEmitsProgressThenTheContent() async throws {
        let body = Data(repeating: 7, count: 2 << 20)
        let events = Recorder<TransferEvent<UploadResult>>()
        let cancellable = client.uploadPublisher(Upload(body: .data(body)))
            .sink(receiveCompletion: events.complete, receiveValue: events.value)
        _ = try await events.completion()
        XCTAssertEqual(events.values.last?.content, UploadResult(received: body.count))
        XCTAssertGreaterThan(events.values.count, 1, "progress came first")
        cancellable.cancel()
    }

    func testCancellingADownloadMidTransferClosesTheConnection() async throws {
        let events = Recorder<TransferEvent<URL>>()
        let cancellable = client.downloadPublisher(Download(count: 1 << 30, delayMicroseconds: 1000))
            .sink(receiveCompletion: events.complete, receiveValue: events.value)
        let started = await waitUntil(timeout: 5) { events.values.count > 2 }
        XCTAssertTrue(started, "no progress arrived")
        cancellable.cancel()
        let closed = await server.waitForDisconnect(of: "/bytes")
        XCTAssertTrue(closed)
    }
}
