import EndpointKit
import EndpointKitTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class StubClientTests: XCTestCase {
    func testAnswersPerEndpointTypeWithBothAPIsAndRecordsCalls() async throws {
        let client = StubClient()
        client.stub(GetBook.self) { endpoint in Book(id: 9, title: endpoint.path, author: nil) }
        let book = try await client.request(GetBook(path: "books/9"))
        XCTAssertEqual(book.title, "books/9")
        let viaCompletion: Book = try await withCheckedThrowingContinuation { continuation in
            client.request(GetBook(path: "books/10")) { continuation.resume(with: $0) }
        }
        XCTAssertEqual(viaCompletion.title, "books/10")
        XCTAssertEqual(client.calls(to: GetBook.self).map(\.path), ["books/9", "books/10"])
        XCTAssertEqual(client.calls.first?.request?.url?.relativeString, "books/9")
    }

    func testShutdownThroughTheProtocolIsRecorded() async throws {
        let stub = StubClient()
        stub.stub(GetBook.self) { _ in Routes.books[0] }
        let client: any Client = stub
        XCTAssertEqual(stub.shutdownCount, 0)
        try await client.shutdown()
        try await client.shutdown()
        XCTAssertEqual(stub.shutdownCount, 2)
        let book = try await client.request(GetBook())
        XCTAssertEqual(book, Routes.books[0])
    }

    func testAProgressHandlerCanCancelAStubbedTransfer() async throws {
        let client = StubClient()
        let steps = (1...4).map { TransferProgress(direction: .download, completedBytes: Int64($0) * 10, totalBytes: 40) }
        client.stub(Download.self, progress: steps) { _ in URL(fileURLWithPath: "/tmp/stub") }
        let seen = Guarded<[Int64]>([])
        do {
            _ = try await client.download(Download(count: 40)) { report in
                seen.withLock { $0.append(report.completedBytes) }
                if report.completedBytes == 20 { report.cancel() }
            }
            XCTFail("expected CancellationError")
        } catch is CancellationError {}
        XCTAssertEqual(seen.withLock { $0 }, [10, 20])
    }

    func testErrorsDelaysAndCancellation() async throws {
        let client = StubClient()
        client.stub(ListBooks.self, error: URLError(.notConnectedToInternet))
        do {
            _ = try await client.request(ListBooks())
            XCTFail("expected an error")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .notConnectedToInternet)
        }
        client.stub(GetBook.self, delay: 10) { _ in Book(id: 1, title: "late", author: nil) }
        let started = Date()
        let progress = client.request(GetBook()) { _ in }
        progress.cancel()
        let task = Task { try await client.request(GetBook()) }
        task.cancel()
        let result = await task.result
        XCTAssertTrue(result.error is CancellationError, "\(result)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }

    func testRequestMatchingAndClearFailures() async throws {
        let client = StubClient()
        client.stub(matching: { $0.url?.relativeString == "books/1" }) { _ in Book(id: 1, title: "matched", author: nil) }
        let matched = try await client.request(GetBook(path: "books/1"))
        XCTAssertEqual(matched.title, "matched")
        do {
            _ = try await client.request(ListBooks())
            XCTFail("expected an error")
        } catch let error as StubClient.Unstubbed {
            XCTAssertEqual(error.endpoint, "ListBooks")
            XCTAssertTrue(error.description.contains("stub(ListBooks.self)"))
        }
        client.stub(ListBooks.self) { _ in "not books" }
        do {
            _ = try await client.request(ListBooks())
            XCTFail("expected an error")
        } catch let error as StubTypeMismatch {
            XCTAssertEqual(error.expected, "Array<Book>")
        }
    }

    /// `events(_:)` reads a stubbed stream whose head says `text/event-stream`, as a server's
    /// would, and refuses one that says otherwise.
    func testStubbedEventsNeedTheEventStreamType() async throws {
        let client = StubClient()
        client.stub(matching: { $0.url?.relativeString == "feed" }) { request in
            try ResponseStream.stubbed(
                url: request.url, headers: ["Content-Type": "text/event-stream"], chunks: [Data("id: 1\ndata: first\n\ndata: second\n\n".utf8)])
        }
        client.stub(matching: { $0.url?.relativeString == "page" }) { request in
            try ResponseStream.stubbed(url: request.url, headers: ["Content-Type": "text/html"], chunks: [Data("<h1>Sign in</h1>".utf8)])
        }
        var data: [String] = []
        for try await event in client.events(PathEndpoint(path: "feed"), reconnect: false) { data.append(event.data) }
        XCTAssertEqual(data, ["first", "second"])
        do {
            for try await _ in client.events(PathEndpoint(path: "page")) { XCTFail("text/html read as events") }
            XCTFail("expected decodingFailed")
        } catch EndpointKitError.decodingFailed(let failure) {
            XCTAssertEqual(failure.contentType, "text/html")
            XCTAssertEqual(failure.bodyText, "<h1>Sign in</h1>")
        }
        XCTAssertEqual(client.calls.count, 2, "the page was asked for again")
    }

    func testStubbedProgressReachesBothAPIs() async throws {
        let client = StubClient()
        let steps = [256, 512, 1024].map { TransferProgress(direction: .download, completedBytes: Int64($0), totalBytes: 1024) }
        let file = URL(fileURLWithPath: "/tmp/stubbed")
        client.stub(Download.self, delay: 0.05, progress: steps) { _ in file }
        let seen = Guarded<[Int64]>([])
        let url = try await client.download(Download(count: 1024)) { event in seen.withLock { $0.append(event.completedBytes) } }
        XCTAssertEqual(url, file)
        XCTAssertEqual(seen.withLock { $0 }, [256, 512, 1024])

        let holder = Guarded<Progress?>(nil)
        let viaCompletion: URL = try await withCheckedThrowingContinuation { continuation in
            holder.withLock { $0 = client.download(Download(count: 1024)) { continuation.resume(with: $0) } }
        }
        XCTAssertEqual(viaCompletion, file)
        let progress = try XCTUnwrap(holder.withLock { $0 })
        XCTAssertEqual(progress.totalUnitCount, 1024)
        XCTAssertEqual(progress.completedUnitCount, 1024)
    }
}
