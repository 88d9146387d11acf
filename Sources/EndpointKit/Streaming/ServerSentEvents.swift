import Foundation

/// A response body as Server-Sent Events (see ``ServerSentEventDecoder``).
public struct ServerSentEvents: AsyncSequence, Sendable {
    public typealias Element = ServerSentEvent

    let stream: ResponseStream
    let lastEventID: String?

    init(_ stream: ResponseStream, lastEventID: String? = nil) {
        self.stream = stream
        self.lastEventID = lastEventID
    }

    /// Iterates the events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: ResponseStream.AsyncIterator
        var decoder: ServerSentEventDecoder
        /// The events of the last chunk; those before `taken` have been handed out (not removed
        /// one by one: each removal from the front would move all the others).
        var ready: [ServerSentEvent] = []
        var taken = 0
        let stream: ResponseStream

        /// The next event, or `nil` when the stream ends.
        public mutating func next() async throws -> ServerSentEvent? {
            while taken == ready.count {
                guard let chunk = try await chunks.next() else { return nil }
                ready = decoder.decode(chunk)
                taken = 0
                // Checked once a chunk: at most the limit and a chunk are held.
                if decoder.heldBytes > stream.textLimit { throw stream.textTooLarge }
            }
            defer { taken += 1 }
            return ready[taken]
        }

        /// The last event ID the stream set.
        public var lastEventID: String? { decoder.lastEventID }
        /// The reconnection time the stream asked for, in milliseconds.
        public var reconnectionTime: Int? { decoder.reconnectionTime }
    }

    /// Starts iterating the events.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: stream.makeAsyncIterator(), decoder: ServerSentEventDecoder(lastEventID: lastEventID), stream: stream)
    }
}
