import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response whose body arrives as it is sent: its head first (already validated), then the
/// body in chunks, with `for try await`. Views: ``lines`` for text streams, ``events`` for
/// Server-Sent Events.
///
/// Leaving the loop early, or cancelling the task that iterates, cancels the request (the
/// connection is closed). A stream is iterated once.
public struct ResponseStream: AsyncSequence, Sendable {
    public typealias Element = Data

    /// The response head as the transport received it. SPI for EndpointKit's packages.
    @_spi(Transport) public let head: ResponseHead
    private let chunks: AsyncThrowingStream<Data, any Error>
    private let consumed: @Sendable (Int) -> Void
    /// How the client's cache answered, when the stream went through it (see ``CachingTransport``).
    var cacheOutcome: CacheOutcome?

    /// Creates a stream from a head and its body chunks. `consumed` is told how many bytes the
    /// reader took, for transports that bound what is waiting. SPI for EndpointKit's clients.
    @_spi(Transport) public init(
        head: ResponseHead, chunks: AsyncThrowingStream<Data, any Error>,
        consumed: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.head = head
        self.chunks = chunks
        self.consumed = consumed
    }

    /// Creates a stream from a Foundation response head and its body chunks; see
    /// ``init(head:chunks:consumed:)``.
    @_spi(Transport) public init(
        response: HTTPURLResponse, chunks: AsyncThrowingStream<Data, any Error>,
        consumed: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.init(head: ResponseHead(response), chunks: chunks, consumed: consumed)
    }

    /// The response head: status and headers, before any body byte.
    public var response: HTTPURLResponse { head.response }

    /// The body as lines of text (UTF-8), split on LF, CRLF or CR, without their line ends.
    public var lines: ResponseLines { ResponseLines(self) }

    /// The body as Server-Sent Events.
    public var events: ServerSentEvents { ServerSentEvents(self) }

    /// Iterates the body's chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Data, any Error>.AsyncIterator
        let consumed: @Sendable (Int) -> Void

        /// The next chunk, or `nil` at the end of the body; throws `CancellationError` when the
        /// iterating task is cancelled (the request is cancelled too).
        public mutating func next() async throws -> Data? {
            let chunk = try await base.next()
            if let chunk {
                consumed(chunk.count)
            } else {
                try Task.checkCancellation()
            }
            return chunk
        }
    }

    /// Starts iterating the body.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: chunks.makeAsyncIterator(), consumed: consumed)
    }
}
