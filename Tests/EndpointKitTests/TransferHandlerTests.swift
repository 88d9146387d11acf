import Foundation
import XCTest

@_spi(Locking) @_spi(Transport) @testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A streamed call's handler, fed its task's events by hand: when the head goes to the caller,
/// and what the reader's end of the stream does once the task has ended. The task is made but
/// never resumed, so a cancel that reached it would show in its state.
final class TransferHandlerTests: XCTestCase {
    private let delegate = SessionDelegate()
    private lazy var session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: delegate.queue)
    private let url = URL(string: "http://127.0.0.1:9/feed")

    override func tearDown() {
        session.invalidateAndCancel()
        super.tearDown()
    }

    func testAHeadWithADeclaredLengthGoesWithTheFirstBytes() throws {
        let (handler, task, heads) = try streamWithHead(["Content-Length": "5"])
        XCTAssertEqual(heads.withLock { $0 }, 0, "the head went before the body it declared")
        handler.didReceive(data: Data("hello".utf8))
        XCTAssertEqual(heads.withLock { $0 }, 1)
        handler.didComplete(error: nil)
        XCTAssertEqual(heads.withLock { $0 }, 1, "the head went twice")
        XCTAssertEqual(task.state, .suspended)
    }

    func testAHeadWithoutADeclaredLengthGoesBeforeAnyBody() throws {
        let (handler, _, heads) = try streamWithHead(["Content-Type": "text/event-stream"])
        XCTAssertEqual(heads.withLock { $0 }, 1, "a feed's head waited for its first event")
        handler.didReceive(data: Data("data: one\n\n".utf8))
        handler.didComplete(error: nil)
        XCTAssertEqual(heads.withLock { $0 }, 1, "the head went twice")
    }

    func testTheReaderLettingGoOfAnEndedStreamCancelsNothing() throws {
        for fields in [["Content-Length": "5"], [:]] {
            let (handler, task, _) = try streamWithHead(fields)
            handler.didReceive(data: Data("hello".utf8))
            handler.didComplete(error: nil)
            // What the stream's termination does when its reader lets go.
            handler.cancel()
            delegate.queue.waitUntilAllOperationsAreFinished()
            XCTAssertEqual(task.state, .suspended, "an ended task was cancelled (\(fields))")
        }
    }

    func testTheReaderLettingGoOfAStreamStillArrivingCancelsItsTask() throws {
        let (handler, task, _) = try streamWithHead(["Content-Length": "10"])
        handler.didReceive(data: Data("hello".utf8))
        handler.cancel()
        delegate.queue.waitUntilAllOperationsAreFinished()
        XCTAssertNotEqual(task.state, .suspended, "the task of an unfinished stream was left running")
    }

    /// A streamed call's handler, started with a task that is never resumed and handed a head
    /// with `fields` (what the delegate queue then held has run), and how many times that head
    /// has gone to the caller.
    private func streamWithHead(_ fields: [String: String]) throws -> (TransferHandler, URLSessionTask, Locked<Int>) {
        let url = try XCTUnwrap(url)
        let outgoing = Outgoing(request: URLRequest(url: url))
        let (_, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        let handler = TransferHandler(
            outgoing: outgoing, file: nil, bodyLimit: .max, delegate: delegate, progress: nil,
            streaming: .init(chunks: continuation, waiting: Locked(0), limit: .max))
        let heads = Locked(0)
        handler.onCompletion { result in
            if case .success = result { heads.withLock { $0 += 1 } }
        }
        let task = session.dataTask(with: url)
        XCTAssertTrue(handler.start(task))
        let head = try XCTUnwrap(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields))
        _ = handler.didReceive(response: head)
        delegate.queue.waitUntilAllOperationsAreFinished()
        return (handler, task, heads)
    }
}
