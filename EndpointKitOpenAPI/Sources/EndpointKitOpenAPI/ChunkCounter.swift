import EndpointKit
import Foundation

/// Reads a stream of chunks (a response's, or a generated request's `HTTPBody`) one chunk per
/// call and counts the bytes read.
///
/// `@unchecked Sendable`: the iterator and the count are touched only by `next()`, and the one
/// stream that owns this reader calls `next()` again only after the previous call returned
/// (`AsyncThrowingStream(unfolding:)` awaits each element before asking for the next).
final class ChunkCounter<Iterator: AsyncIteratorProtocol>: @unchecked Sendable where Iterator.Element: Collection {
    private var iterator: Iterator
    /// The bytes read so far.
    private(set) var count: Int64 = 0

    init(_ iterator: Iterator) {
        self.iterator = iterator
    }

    func next() async throws -> Iterator.Element? {
        let chunk = try await iterator.next()
        count += Int64(chunk?.count ?? 0)
        return chunk
    }
}
