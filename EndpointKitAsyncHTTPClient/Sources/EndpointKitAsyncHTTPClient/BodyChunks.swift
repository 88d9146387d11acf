import Foundation
import NIOCore

/// A request body read as AsyncHTTPClient asks for it, reporting each chunk as sent: from a
/// fresh `InputStream` in 64 KiB chunks (so a large file is never in memory), or from a
/// ``EndpointKit/ProducedBody`` chunk by chunk as its producer writes them.
struct BodyChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// An error from making or reading the body stream, passed to the caller as it is.
    struct StreamFailure: Error {
        let underlying: any Error
    }

    /// Where the bytes come from.
    enum Source: Sendable {
        case stream(@Sendable () throws -> InputStream)
        case produced(ProducedBodyReader)
    }

    let source: Source
    /// Told each chunk's size; throwing (the caller cancelled from its progress handler) stops
    /// the body with that error.
    let sent: @Sendable (Int) throws -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: Source
        let sent: @Sendable (Int) throws -> Void
        var stream: InputStream?
        var pass: ProducedBodyReader.Pass?
        var buffer: [UInt8] = []

        mutating func next() async throws -> ByteBuffer? {
            try Task.checkCancellation()
            switch source {
            case .stream(let makeStream): return try read(from: stream ?? open(makeStream))
            case .produced(let reader): return try await next(of: reader)
            }
        }

        private mutating func next(of reader: ProducedBodyReader) async throws -> ByteBuffer? {
            do {
                let pass = try self.pass ?? reader.pass()
                self.pass = pass
                guard let chunk = try await reader.next(in: pass) else { return nil }
                try sent(chunk.count)
                return ByteBuffer(bytes: chunk)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw StreamFailure(underlying: error)
            }
        }

        private mutating func read(from stream: InputStream) throws -> ByteBuffer? {
            if buffer.isEmpty { buffer = [UInt8](repeating: 0, count: 64 * 1024) }
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

        private mutating func open(_ makeStream: @Sendable () throws -> InputStream) throws -> InputStream {
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
        AsyncIterator(source: source, sent: sent)
    }
}
