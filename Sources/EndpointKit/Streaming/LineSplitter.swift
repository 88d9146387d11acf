/// Cuts bytes that arrive in chunks into lines ending in LF, CRLF or CR (a CRLF cut between two
/// chunks is one line end), for ``ResponseLines`` and ``ServerSentEventDecoder``. A line is read
/// where it lies in its chunk; only one begun in an earlier chunk is copied.
struct LineSplitter: Sendable {
    /// A whole line, without its line end.
    enum Line {
        /// These bytes of the chunk.
        case inChunk(Range<Int>)
        /// A line begun in earlier chunks, its bytes joined.
        case carried([UInt8])
    }

    /// The bytes of the line not ended yet.
    private(set) var pending: [UInt8] = []
    private var skipLineFeed = false

    /// The next line that `bytes` ends from `start` on (0 for a new chunk), `start` moved past
    /// its line end; `nil` once there is none, the rest kept for the next chunk.
    mutating func nextLine(in bytes: UnsafeRawBufferPointer, from start: inout Int) -> Line? {
        // A LF right after a CR that ended the last chunk belongs to that line end.
        if start == 0, !bytes.isEmpty, skipLineFeed {
            skipLineFeed = false
            if bytes[0] == 0x0A { start = 1 }
        }
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x0A || byte == 0x0D else {
                index += 1
                continue
            }
            let line = start..<index
            index += 1
            if byte == 0x0D {
                if index == bytes.count { skipLineFeed = true } else if bytes[index] == 0x0A { index += 1 }
            }
            start = index
            guard !pending.isEmpty else { return .inChunk(line) }
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[line]))
            defer { pending = [] }
            return .carried(pending)
        }
        pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
        start = bytes.count
        return nil
    }

    /// The bytes after the last line end, at the end of the stream; `nil` if there are none.
    mutating func finish() -> [UInt8]? {
        defer { pending = [] }
        return pending.isEmpty ? nil : pending
    }
}
