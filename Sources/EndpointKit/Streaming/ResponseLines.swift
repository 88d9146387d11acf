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
        var ready: [String] = []
        var skipLineFeed = false
        var finished = false

        /// The next line, or `nil` at the end of the body.
        public mutating func next() async throws -> String? {
            while ready.isEmpty {
                if finished { return nil }
                guard let chunk = try await chunks.next() else {
                    finished = true
                    if !pending.isEmpty { ready.append(String(decoding: pending, as: UTF8.self)) }
                    pending = []
                    break
                }
                for byte in chunk {
                    if skipLineFeed {
                        skipLineFeed = false
                        if byte == 0x0A { continue }
                    }
                    if byte == 0x0A || byte == 0x0D {
                        skipLineFeed = byte == 0x0D
                        ready.append(String(decoding: pending, as: UTF8.self))
                        pending.removeAll(keepingCapacity: true)
                    } else {
                        pending.append(byte)
                    }
                }
            }
            return ready.isEmpty ? nil : ready.removeFirst()
        }
    }

    /// Starts iterating the lines.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: stream.makeAsyncIterator())
    }
}
