@_spi(Transport) import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The inbox every WebSocket transport shares: order, back-pressure, and how it ends.
final class WebSocketInboxTests: XCTestCase {
    private final class Channel: WebSocketChannel {
        let resumes = Guarded(0)
        let cancels = Guarded(0)
        func send(_ message: WebSocketMessage) async throws {}
        func ping() async throws {}
        func close(code: WebSocketCloseCode, reason: String) async {}
        func resumeReading() { resumes.withLock { $0 += 1 } }
        func cancel() { cancels.withLock { $0 += 1 } }
    }

    func testAFullInboxPausesTheChannelUntilTheReaderCatchesUp() async throws {
        let inbox = WebSocketInbox()
        let channel = Channel()
        let socket = WebSocket(request: URLRequest(url: URL(string: "ws://example.com")!), channel: channel, inbox: inbox)
        var accepted: [Bool] = []
        for index in 0..<WebSocketInbox.highWater { accepted.append(inbox.deliver(.text("\(index)"))) }
        XCTAssertEqual(accepted.filter { $0 }.count, WebSocketInbox.highWater - 1, "only the last delivery pauses")
        XCTAssertFalse(accepted.last ?? true)
        var iterator = socket.makeAsyncIterator()
        for index in 0..<(WebSocketInbox.highWater - WebSocketInbox.lowWater - 1) {
            let message = try await iterator.next()
            XCTAssertEqual(message, .text("\(index)"))
        }
        XCTAssertEqual(channel.resumes.withLock { $0 }, 0, "still above the low-water mark")
        _ = try await iterator.next()
        XCTAssertEqual(channel.resumes.withLock { $0 }, 1)
        inbox.finish(code: .normalClosure, reason: "bye")
        var rest = 0
        while try await iterator.next() != nil { rest += 1 }
        XCTAssertEqual(rest, WebSocketInbox.lowWater, "messages delivered before the close are all read")
        XCTAssertEqual(socket.closeCode, .normalClosure)
        XCTAssertEqual(socket.closeReason, "bye")
    }

    func testCancellingTheReaderCancelsTheChannel() async throws {
        let inbox = WebSocketInbox()
        let channel = Channel()
        let socket = WebSocket(request: URLRequest(url: URL(string: "ws://example.com")!), channel: channel, inbox: inbox)
        let reader = Task { for try await _ in socket {} }
        try await Task.sleep(nanoseconds: 20_000_000)
        reader.cancel()
        _ = await reader.result
        XCTAssertEqual(channel.cancels.withLock { $0 }, 1)
        XCTAssertEqual(socket.closeCode, .goingAway)
    }

    func testAFailureEndsTheLoopWithItsErrorAfterTheMessages() async throws {
        let inbox = WebSocketInbox()
        let socket = WebSocket(request: URLRequest(url: URL(string: "ws://example.com")!), channel: Channel(), inbox: inbox)
        _ = inbox.deliver(.binary(Data([1, 2])))
        inbox.fail(URLError(.networkConnectionLost))
        var received: [WebSocketMessage] = []
        do {
            for try await message in socket { received.append(message) }
            XCTFail("expected the failure")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .networkConnectionLost)
        }
        XCTAssertEqual(received, [.binary(Data([1, 2]))])
        XCTAssertEqual(socket.closeCode, .abnormalClosure)
    }
}
