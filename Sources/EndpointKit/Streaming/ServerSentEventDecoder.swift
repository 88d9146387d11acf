import Foundation

/// Turns the bytes of a `text/event-stream` into events, following the WHATWG HTML rules
/// (9.2.6, "Interpreting an event stream"): UTF-8 with an optional leading BOM; lines ending in
/// CRLF, LF or CR (even split across chunks); `event`, `data` (several lines joined with LF),
/// `id` (ignored if it contains NUL), `retry` (digits only), comments (`:`) and unknown fields
/// ignored; an event is dispatched at a blank line, and one left unfinished at the end is dropped.
public struct ServerSentEventDecoder: Sendable {
    private var splitter = LineSplitter()
    private var sawBOMCheck = false
    private var eventType = ""
    private var data = ""
    private var hasData = false
    private var retry: Int?
    /// The last event ID set by the stream, to send as `Last-Event-ID` when reconnecting.
    public private(set) var lastEventID: String?
    /// The reconnection time the stream last asked for (`retry`), in milliseconds; it applies
    /// at once, even from a block that dispatches no event.
    public private(set) var reconnectionTime: Int?

    /// Creates a decoder at the start of a stream. `lastEventID` is the ID the previous
    /// connection of the same event source ended with (sent as `Last-Event-ID`): as WHATWG's
    /// last-event-ID buffer, it carries over, so events without an `id` field report it.
    public init(lastEventID: String? = nil) {
        self.lastEventID = lastEventID
    }

    /// The bytes held for the event being read: its unfinished line and its data so far.
    var heldBytes: Int { splitter.pending.count + data.utf8.count }

    /// Feeds the next bytes; returns the events they complete.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        let done: Void? = bytes.withContiguousStorageIfAvailable { decode(UnsafeRawBufferPointer($0), into: &events) }
        if done == nil { Array(bytes).withUnsafeBytes { decode($0, into: &events) } }
        return events
    }

    /// Reads the lines `bytes` ends (see ``LineSplitter``).
    private mutating func decode(_ bytes: UnsafeRawBufferPointer, into events: inout [ServerSentEvent]) {
        var start = 0
        while let line = splitter.nextLine(in: bytes, from: &start) {
            let event =
                switch line {
                case .inChunk(let range): endLine(UnsafeRawBufferPointer(rebasing: bytes[range]))
                case .carried(let joined): joined.withUnsafeBytes { endLine($0) }
                }
            if let event { events.append(event) }
        }
    }

    /// Reads one line (without its line end): a field, a comment, or the blank line that
    /// dispatches the event.
    private mutating func endLine(_ whole: UnsafeRawBufferPointer) -> ServerSentEvent? {
        var line = whole
        if !sawBOMCheck {
            sawBOMCheck = true
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = UnsafeRawBufferPointer(rebasing: line[3...]) }
        }
        guard let first = line.first else { return dispatch() }
        if first == UInt8(ascii: ":") { return nil }
        var field = line
        var value = UnsafeRawBufferPointer(rebasing: line[line.endIndex...])
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = UnsafeRawBufferPointer(rebasing: line[..<colon])
            value = UnsafeRawBufferPointer(rebasing: line[(colon + 1)...])
            if value.first == UInt8(ascii: " ") { value = UnsafeRawBufferPointer(rebasing: value[(value.startIndex + 1)...]) }
        }
        if field.elementsEqual("data".utf8) {
            // The lines of an event's data, joined with LF (WHATWG appends a LF to each and
            // drops the last one at dispatch).
            if hasData { data += "\n" }
            data += String(decoding: value, as: UTF8.self)
            hasData = true
        } else if field.elementsEqual("event".utf8) {
            eventType = String(decoding: value, as: UTF8.self)
        } else if field.elementsEqual("id".utf8) {
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        } else if field.elementsEqual("retry".utf8) {
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                retry = milliseconds
                reconnectionTime = milliseconds
            }
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = ""
            eventType = ""
            hasData = false
            retry = nil
        }
        guard hasData else { return nil }
        return ServerSentEvent(
            event: eventType.isEmpty ? "message" : eventType, data: data, id: lastEventID,
            retry: retry)
    }
}
