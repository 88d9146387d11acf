import Foundation

/// Reads a response stream one chunk per call and keeps a copy of what it read, up to a limit,
/// so the cache can store a streamed body once it has ended.
///
/// `@unchecked Sendable`: the iterator and the copy are touched only by `next()` and, after the
/// stream ended, by ``recorded``; the one stream that owns this reader calls `next()` again only
/// after the previous call returned (`AsyncThrowingStream(unfolding:)` awaits each element).
final class StreamRecorder: @unchecked Sendable {
    private var iterator: ResponseStream.AsyncIterator
    private let limit: Int
    private var copy: Data? = Data()

    init(_ iterator: ResponseStream.AsyncIterator, limit: Int) {
        self.iterator = iterator
        self.limit = limit
    }

    /// The whole body, once the stream has ended; `nil` if it was longer than the limit.
    var recorded: Data? { copy }

    func next() async throws -> Data? {
        let chunk = try await iterator.next()
        if let chunk, copy != nil {
            if (copy?.count ?? 0) + chunk.count > limit { copy = nil } else { copy?.append(chunk) }
        }
        return chunk
    }
}
