import EndpointKit
import XCTest

final class ServerSentEventDecoderTests: XCTestCase {
    private func decode(_ text: String, chunk: Int = .max) -> (events: [ServerSentEvent], decoder: ServerSentEventDecoder) {
        var decoder = ServerSentEventDecoder()
        var events: [ServerSentEvent] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + chunk)
            events += decoder.decode(bytes[index..<end])
            index = end
        }
        return (events, decoder)
    }

    func testDataEventAndIdFields() {
        let (events, decoder) = decode("event: add\ndata: 1\nid: 7\n\ndata: plain\n\n")
        XCTAssertEqual(events, [
            ServerSentEvent(event: "add", data: "1", id: "7"), ServerSentEvent(event: "message", data: "plain", id: "7"),
        ])
        XCTAssertEqual(decoder.lastEventID, "7")
    }

    func testSeveralDataLinesAreJoinedWithLineFeeds() {
        XCTAssertEqual(decode("data: first\ndata:second\ndata\ndata:  indented\n\n").events.map(\.data), ["first\nsecond\n\n indented"])
    }

    func testEveryLineEndingWorksEvenSplitAcrossChunks() {
        let text = "data: a\r\n\r\ndata: b\r\rdata: c\n\ndata: d\r\n\n"
        for size in [1, 2, 3, 7, .max] {
            XCTAssertEqual(decode(text, chunk: size).events.map(\.data), ["a", "b", "c", "d"], "chunk \(size)")
        }
    }

    func testCommentsUnknownFieldsAndBlockWithoutDataDispatchNothing() {
        XCTAssertEqual(decode(": keep-alive\n\nfoo: bar\n\nevent: x\n\ndata: y\n\n").events, [ServerSentEvent(data: "y")])
    }

    func testALeadingByteOrderMarkIsSkippedOnlyAtTheStart() {
        XCTAssertEqual(decode("\u{FEFF}data: a\n\n\u{FEFF}data: b\n\n").events.map(\.data), ["a"])
    }

    func testRetryTakesDigitsOnlyAndAppliesAtOnce() {
        let (events, decoder) = decode("retry: 1500\n\nretry: 2x\ndata: a\n\nretry: 300\ndata: b\n\n")
        XCTAssertEqual(events.map(\.retry), [nil, 300])
        XCTAssertEqual(decoder.reconnectionTime, 300)
        XCTAssertEqual(decode("retry: 1500\n\n").decoder.reconnectionTime, 1500)
    }

    func testAnIdWithNulIsIgnoredAndAnEmptyIdResets() {
        let (events, _) = decode("id: 1\ndata: a\n\nid: 2\u{0}\ndata: b\n\nid\ndata: c\n\n")
        XCTAssertEqual(events.map(\.id), ["1", "1", ""])
    }

    func testAnUnfinishedEventAtTheEndIsNotDispatched() {
        XCTAssertEqual(decode("data: done\n\ndata: cut").events.map(\.data), ["done"])
    }

    /// Every way of cutting a stream into chunks (here each size from 1 byte to all of it, and
    /// a generic sequence that is not contiguous) gives the same events as the whole.
    func testEveryChunkingGivesTheSameEvents() {
        let text = "\u{FEFF}: hi\r\nevent: a\rdata: 1\r\ndata:\r\nid: 7\n\nretry: 40\ndata: Łódź 🚀\r\r"
            + "foo\ndata\n\nid: x\u{0}\ndata: :colon: in\n\n: bye\ndata: tail"
        let whole = decode(text)
        XCTAssertEqual(whole.events, [
            ServerSentEvent(event: "a", data: "1\n", id: "7"), ServerSentEvent(data: "Łódź 🚀", id: "7", retry: 40),
            ServerSentEvent(data: "", id: "7"), ServerSentEvent(data: ":colon: in", id: "7"),
        ])
        for size in 1...text.utf8.count {
            let cut = decode(text, chunk: size)
            XCTAssertEqual(cut.events, whole.events, "chunk \(size)")
            XCTAssertEqual(cut.decoder.lastEventID, "7", "chunk \(size)")
        }
        var decoder = ServerSentEventDecoder()
        XCTAssertEqual(decoder.decode(text.utf8.lazy.map { $0 }), whole.events)
    }

    func testUnicodeSplitInsideACharacter() {
        XCTAssertEqual(decode("data: Łódź 🚀\n\n", chunk: 1).events.map(\.data), ["Łódź 🚀"])
    }
}
