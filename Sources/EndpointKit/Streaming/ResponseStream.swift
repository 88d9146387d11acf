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
    private let chunks: Chunks
    private let consumed: @Sendable (Int) -> Void
    /// How the client's cache answered, when the stream went through it (see ``CachingTransport``).
    var cacheOutcome: CacheOutcome?
    /// The most bytes ``lines`` and ``events`` hold for one line or event: the client's
    /// `maximumBodySize`, set by the client that made the stream.
    var textLimit = 100 << 20

    /// Creates a stream from a head and its body chunks. `consumed` is told how many bytes the
    /// reader took, for transports that bound what is waiting. SPI for EndpointKit's clients.
    @_spi(Transport) public init(
        head: ResponseHead, chunks: AsyncThrowingStream<Data, any Error>,
        consumed: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.head = head
        self.chunks = .stream(chunks)
        self.consumed = consumed
    }

    /// Creates a stream from a head and a function that reads its body's next chunk (`nil` at
    /// the end), called once for each chunk the reader asks for. The function is not guarded
    /// against two readers at once: a stream is iterated once, by one reader. For a transport
    /// whose reader pulls (the chunks take no `AsyncThrowingStream` of their own, nor its
    /// allocations). SPI for EndpointKit's clients.
    @_spi(Transport) public init(head: ResponseHead, next: @escaping @Sendable () async throws -> Data?) {
        self.head = head
        self.chunks = .pulled(next)
        self.consumed = { _ in }
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

    /// The body as lines of text (UTF-8), split on LF, CRLF or CR, without their line ends. A
    /// line longer than the client's `maximumBodySize` fails with
    /// ``EndpointKitError/bodyTooLarge(url:limit:)``: a body that never ends a line cannot
    /// take all memory.
    public var lines: ResponseLines { ResponseLines(self) }

    /// The body as Server-Sent Events. An event (or a line of one) longer than the client's
    /// `maximumBodySize` fails with ``EndpointKitError/bodyTooLarge(url:limit:)``.
    public var events: ServerSentEvents { ServerSentEvents(self) }

    /// Iterates the body's chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Data, any Error>.AsyncIterator?
        let pull: (@Sendable () async throws -> Data?)?
        let consumed: @Sendable (Int) -> Void

        /// The next chunk, or `nil` at the end of the body; throws `CancellationError` when the
        /// iterating task is cancelled (the request is cancelled too).
        public mutating func next() async throws -> Data? {
            let chunk: Data?
            if let pull {
                // As a stream ends at its task's cancel: no chunk is read after it.
                try Task.checkCancellation()
                chunk = try await pull()
            } else {
                chunk = try await base?.next()
            }
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
        switch chunks {
        case .stream(let stream): AsyncIterator(base: stream.makeAsyncIterator(), pull: nil, consumed: consumed)
        case .pulled(let next): AsyncIterator(base: nil, pull: next, consumed: consumed)
        }
    }
}

extension ResponseStream {
    /// The error for a line or event past ``textLimit``.
    var textTooLarge: EndpointKitError {
        .bodyTooLarge(url: head.response.url, limit: textLimit)
    }

    /// Where a stream's chunks come from: a stream the transport feeds, or a function the
    /// reader calls for each chunk.
    private enum Chunks: Sendable {
        case stream(AsyncThrowingStream<Data, any Error>)
        case pulled(@Sendable () async throws -> Data?)
    }
}
