import Foundation

/// Turns the bytes of a `text/event-stream` into events, following the WHATWG HTML rules
/// (9.2.6, "Interpreting an event stream"): UTF-8 with an optional leading BOM; lines ending in
/// CRLF, LF or CR (even split across chunks); `event`, `data` (several lines joined with LF),
/// `id` (ignored if it contains NUL), `retry` (digits only), comments (`:`) and unknown fields
/// ignored; an event is dispatched at a blank line, and one left unfinished at the end is dropped.
public struct ServerSentEventDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var sawBOMCheck = false
    private var skipLineFeed = false
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
    var heldBytes: Int { buffer.count + data.utf8.count }

    /// Feeds the next bytes; returns the events they complete.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if skipLineFeed {
                skipLineFeed = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                skipLineFeed = true
                fallthrough
            case 0x0A:
                if let event = endLine() { events.append(event) }
            default:
                buffer.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        var line = buffer
        buffer.removeAll(keepingCapacity: true)
        if !sawBOMCheck {
            sawBOMCheck = true
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        if line.isEmpty { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: line, as: UTF8.self)
        var field = Substring(text)
        var value = Substring("")
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        }
        switch field {
        case "event":
            eventType = String(value)
        case "data":
            data += value + "\n"
            hasData = true
        case "id":
            if !value.contains("\0") { lastEventID = String(value) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }), let milliseconds = Int(value) {
                retry = milliseconds
                reconnectionTime = milliseconds
            }
        default:
            break
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
            event: eventType.isEmpty ? "message" : eventType, data: String(data.dropLast()), id: lastEventID,
            retry: retry)
    }
}
