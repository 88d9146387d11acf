@_spi(Transport) @_spi(Locking) import EndpointKit
import Foundation

/// Reads a ``EndpointKit/ProducedBody`` for AsyncHTTPClient, which pulls a request body from a
/// task of its own that nothing cancels when the call ends. Each read runs in a task that
/// ``end()`` cancels: once the call has ended (answered, failed or cancelled), a producer still
/// writing sees its stream terminated, and AsyncHTTPClient's task stops waiting for it.
final class ProducedBodyReader: Sendable {
    /// One pass over the body: the producer's stream, being read and counted.
    typealias Pass = ChunkCounter<AsyncThrowingStream<Data, any Error>.AsyncIterator>

    private struct State {
        var ended = false
        var reading: Task<Data?, any Error>?
    }

    let body: ProducedBody
    private let state = Locked(State())

    init(_ body: ProducedBody) {
        self.body = body
    }

    /// A reader for `outgoing`'s body, if it is produced.
    convenience init?(of outgoing: Outgoing) {
        guard case .produced(let body) = outgoing.body else { return nil }
        self.init(body)
    }

    /// Starts a pass over the body (one per time it is sent).
    func pass() throws -> Pass {
        Pass(try body.chunks().makeAsyncIterator())
    }

    /// The next chunk of `pass`; throws `CancellationError` once the call has ended.
    func next(in pass: Pass) async throws -> Data? {
        let read = Task { try await pass.next() }
        let ended = state.withLock { state in
            if !state.ended { state.reading = read }
            return state.ended
        }
        if ended { read.cancel() }
        let chunk = try await read.value
        let endedSince = state.withLock { state in
            state.reading = nil
            return state.ended
        }
        // Ended while reading: the producer's stream stopped short, not at the body's end.
        if chunk == nil, endedSince { throw CancellationError() }
        try body.check(produced: pass.count, ended: chunk == nil)
        return chunk
    }

    /// The call has ended: a read in progress is cancelled, and later ones fail.
    func end() {
        state.withLock { state in
            state.ended = true
            return state.reading
        }?.cancel()
    }
}
