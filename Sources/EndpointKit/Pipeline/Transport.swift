import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a transport reports a transfer's progress. Throwing (the pipeline does when the
/// caller's handler called ``TransferProgress/cancel()``) stops the transfer at once, and the
/// call ends with that error.
@_spi(Transport) public typealias ProgressSink = @Sendable (TransferProgress) throws -> Void

/// The I/O half of a client: sends one request and gathers its response, a redirect included
/// (3xx responses are returned, never followed). ``Pipeline`` does everything else (adapters,
/// retries, redirects, validation, decoding, the observer), so every client built on it
/// behaves the same.
///
/// Its methods, and the pipeline's steps around them, are `nonisolated(nonsending)`: they run
/// on the executor of the call that awaits them (a client's public method, which runs on the
/// global executor), instead of each asking the runtime to switch to it on entry. A call
/// made 34 such requests before, 20 now: each reads its task's status with a locked 16-byte
/// compare-and-swap.
///
/// SPI for EndpointKit's own client packages, not public API.
@_spi(Transport) public protocol Transport: Sendable {
    /// Sends `outgoing` once. A 2xx body goes to `file` when given (opened with
    /// ``DownloadFile/open(for:)``), otherwise into memory up to `bodyLimit` bytes
    /// (``EndpointKitError/bodyTooLarge(url:limit:)`` beyond). Past `timeout` seconds the call
    /// fails with ``EndpointKitError/timedOut(url:limit:)``; transport failures are
    /// ``EndpointKitError/transportFailed(url:underlying:)`` with a `URLError`; task
    /// cancellation stops the transfer and throws `CancellationError`.
    nonisolated(nonsending) func send(
        _ outgoing: Outgoing, into file: DownloadFile?, timeout: TimeInterval?, bodyLimit: Int,
        progress: ProgressSink?
    ) async throws -> ReceivedResponse

    /// Sends `outgoing` once and returns as soon as the response head has arrived; the body
    /// follows in the returned stream. `timeout` covers the wait for the head. Ending the
    /// iteration early cancels the transfer.
    nonisolated(nonsending) func stream(_ outgoing: Outgoing, timeout: TimeInterval?) async throws -> ResponseStream

    /// Whether it still sends: `false` once its client was invalidated or shut down, so that a
    /// cache in front of it answers nothing either.
    var isOpen: Bool { get }
}

extension Transport {
    /// Always open.
    public var isOpen: Bool { true }
}
