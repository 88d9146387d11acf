import Foundation

/// A response body as lines of UTF-8 text; a line split across chunks arrives whole. Line ends
/// are LF, CRLF or CR; the text after the last line end is the last line.
public struct ResponseLines: AsyncSequence, Sendable {
    public typealias Element = String

    let stream: ResponseStream

    init(_ stream: ResponseStream) {
        self.stream = stream
    }

    /// Iterates the lines.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: ResponseStream.AsyncIterator
        var pending: [UInt8] = []
        /// The lines of the last chunk; those before `taken` have been handed out (not removed
        /// one by one: each removal from the front would move all the others).
        var ready: [String] = []
        var taken = 0
        var skipLineFeed = false
        var finished = false
        let stream: ResponseStream

        /// The next line, or `nil` at the end of the body.
        public mutating func next() async throws -> String? {
            while taken == ready.count {
                ready.removeAll(keepingCapacity: true)
                taken = 0
                if finished { return nil }
                guard let chunk = try await chunks.next() else {
                    finished = true
                    if !pending.isEmpty { ready.append(String(decoding: pending, as: UTF8.self)) }
                    pending = []
                    continue
                }
                chunk.withUnsafeBytes { split($0) }
                // Checked once a chunk: at most the limit and a chunk are held.
                if pending.count > stream.textLimit { throw stream.textTooLarge }
            }
            defer { taken += 1 }
            return ready[taken]
        }

        /// Adds the lines `bytes` ends to `ready`, each made from the chunk's bytes at once (with
        /// the start carried over from earlier chunks, if any); keeps the rest for the next.
        private mutating func split(_ bytes: UnsafeRawBufferPointer) {
            guard !bytes.isEmpty else { return }
            var start = 0
            // A LF right after a CR that ended the last chunk belongs to that line end.
            if skipLineFeed, bytes.first == 0x0A { start = 1 }
            skipLineFeed = false
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                guard byte == 0x0A || byte == 0x0D else {
                    index += 1
                    continue
                }
                let line = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                if pending.isEmpty {
                    ready.append(String(decoding: line, as: UTF8.self))
                } else {
                    pending.append(contentsOf: line)
                    ready.append(String(decoding: pending, as: UTF8.self))
                    pending.removeAll(keepingCapacity: true)
                }
                index += 1
                if byte == 0x0D {
                    if index == bytes.count { skipLineFeed = true } else if bytes[index] == 0x0A { index += 1 }
                }
                start = index
            }
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
        }
    }

    /// Starts iterating the lines.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: stream.makeAsyncIterator(), stream: stream)
    }
}
