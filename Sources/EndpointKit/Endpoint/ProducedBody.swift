import Foundation

/// A request body written by its producer while the request is sent, as an
/// `AsyncThrowingStream` of chunks: a body of unknown length, a pipe from another call, a
/// generated client's `HTTPBody`.
///
/// `AsyncHTTPClientClient` sends each chunk as it comes, with chunked transfer encoding when no
/// ``length`` is given. `URLSessionClient` cannot be handed bytes during a transfer, so it reads
/// the chunks first: into memory up to 8 MiB, into a temporary file past that (deleted when the
/// call ends), and sends the whole with its `Content-Length`.
public struct ProducedBody: Sendable {
    /// The body's size, when known before it is produced; sent as the `Content-Length`. A
    /// producer that writes more or fewer bytes fails the call with ``LengthMismatch``.
    public var length: Int64?
    /// Whether ``chunks`` can be called again for a second, identical body (a 307/308
    /// redirect, a retry, a hedge). A body that can't is sent once: its call is not retried or
    /// hedged, and a redirect that would send it again fails with
    /// ``EndpointKitError/redirectRefused(url:reason:)``.
    public var canBeSentAgain: Bool
    /// Makes the stream of chunks; called once for every time the body is sent.
    public var chunks: @Sendable () throws -> AsyncThrowingStream<Data, any Error>

    /// A body made by `chunks`, of `length` bytes if known.
    public init(
        length: Int64? = nil, canBeSentAgain: Bool = true,
        chunks: @escaping @Sendable () throws -> AsyncThrowingStream<Data, any Error>
    ) {
        self.length = length
        self.canBeSentAgain = canBeSentAgain
        self.chunks = chunks
    }
}
