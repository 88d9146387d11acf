import EndpointKit
import Foundation

/// Reads a response stream one chunk per call and counts the bytes read.
///
/// `@unchecked Sendable`: the iterator and the count are touched only by `next()`, and the one
/// stream that owns this reader calls `next()` again only after the previous call returned
/// (`AsyncThrowingStream(unfolding:)` awaits each element before asking for the next).
final class ChunkCounter: @unchecked Sendable {
    private var iterator: ResponseStream.AsyncIterator
    /// The bytes read so far.
    private(set) var count: Int64 = 0

    init(_ iterator: ResponseStream.AsyncIterator) {
        self.iterator = iterator
    }

    func next() async throws -> Data? {
        let chunk = try await iterator.next()
        count += Int64(chunk?.count ?? 0)
        return chunk
    }
}
