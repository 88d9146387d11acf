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
        var splitter = LineSplitter()
        /// The lines of the last chunk; those before `taken` have been handed out (not removed
        /// one by one: each removal from the front would move all the others).
        var ready: [String] = []
        var taken = 0
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
                    if let last = splitter.finish() { ready.append(String(decoding: last, as: UTF8.self)) }
                    continue
                }
                chunk.withUnsafeBytes { split($0) }
                // Checked once a chunk: at most the limit and a chunk are held.
                if splitter.pending.count > stream.textLimit { throw stream.textTooLarge }
            }
            defer { taken += 1 }
            return ready[taken]
        }

        /// Adds the lines `bytes` ends to `ready`, each made from the chunk's bytes at once (with
        /// the start carried over from earlier chunks, if any); keeps the rest for the next.
        private mutating func split(_ bytes: UnsafeRawBufferPointer) {
            var start = 0
            while let line = splitter.nextLine(in: bytes, from: &start) {
                switch line {
                case .inChunk(let range): ready.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self))
                case .carried(let joined): ready.append(String(decoding: joined, as: UTF8.self))
                }
            }
        }
    }

    /// Starts iterating the lines.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: stream.makeAsyncIterator(), stream: stream)
    }
}
