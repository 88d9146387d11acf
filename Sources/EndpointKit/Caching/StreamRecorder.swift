import Foundation

/// Reads a response stream one chunk per call and keeps a copy of what it read, up to a limit,
/// so the cache can store a streamed body once it has ended.
final class StreamRecorder: Sendable {
    private let iterator: SerialIterator<ResponseStream.AsyncIterator>
    private let limit: Int
    private let copy = Locked<Data?>(Data())

    init(_ iterator: ResponseStream.AsyncIterator, limit: Int) {
        self.iterator = SerialIterator(iterator)
        self.limit = limit
    }

    /// The whole body, once the stream has ended; `nil` if it was longer than the limit.
    var recorded: Data? { copy.withLock { $0 } }

    func next() async throws -> Data? {
        let chunk = try await iterator.next()
        if let chunk {
            copy.withLock { copy in
                if (copy?.count ?? 0) + chunk.count > limit { copy = nil } else { copy?.append(chunk) }
            }
        }
        return chunk
    }
}
