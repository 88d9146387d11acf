import Foundation

/// Reads a stream of chunks (a response's, a request body's) one chunk per call, as a
/// ``SerialIterator`` does, and counts the bytes read. SPI (`@_spi(Locking) import EndpointKit`).
@_spi(Locking) public final class ChunkCounter<Iterator: AsyncIteratorProtocol>: Sendable where Iterator.Element: Collection {
    private let iterator: SerialIterator<Iterator>
    private let total = Locked<Int64>(0)

    /// Reads from `iterator`.
    public init(_ iterator: Iterator) {
        self.iterator = SerialIterator(iterator)
    }

    /// The bytes read so far.
    public var count: Int64 { total.withLock { $0 } }

    /// The next chunk, counted; see ``SerialIterator/next()``.
    public func next() async throws -> Iterator.Element? {
        let chunk = try await iterator.next()
        total.withLock { $0 += Int64(chunk?.count ?? 0) }
        return chunk
    }
}
