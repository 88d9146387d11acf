import Foundation
import NIOCore

/// A request body read from a fresh `InputStream` in 64 KiB chunks as AsyncHTTPClient asks for
/// them (so a large file is never in memory), reporting each chunk as sent.
struct BodyChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// An error from making or reading the body stream, passed to the caller as it is.
    struct StreamFailure: Error {
        let underlying: any Error
    }

    let makeStream: @Sendable () throws -> InputStream
    /// Told each chunk's size; throwing (the caller cancelled from its progress handler) stops
    /// the body with that error.
    let sent: @Sendable (Int) throws -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        let makeStream: @Sendable () throws -> InputStream
        let sent: @Sendable (Int) throws -> Void
        var stream: InputStream?
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)

        mutating func next() async throws -> ByteBuffer? {
            try Task.checkCancellation()
            let stream = try self.stream ?? open()
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0 { throw StreamFailure(underlying: stream.streamError ?? CocoaError(.fileReadUnknown)) }
            if count == 0 {
                stream.close()
                return nil
            }
            do {
                try sent(count)
            } catch {
                throw StreamFailure(underlying: error)
            }
            return ByteBuffer(bytes: buffer[0..<count])
        }

        private mutating func open() throws -> InputStream {
            do {
                let stream = try makeStream()
                stream.open()
                self.stream = stream
                return stream
            } catch {
                throw StreamFailure(underlying: error)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(makeStream: makeStream, sent: sent)
    }
}
