import AsyncHTTPClient
@_spi(Locking) @_spi(Transport) import EndpointKit
import Foundation
import NIOCore

/// Reads a response body one chunk per call, for a stream that pulls only when its reader asks,
/// and tells `ended` once when the body has been read to the end, failed, or been dropped. A
/// reader that waits longer than `idleLimit` for a chunk fails with
/// ``EndpointKit/EndpointKitError/timedOut(url:limit:)`` (the delegate API's receiver checks
/// that itself; the `async` API's chunks are raced against a timer).
final class BodyReader: Sendable {
    /// Where the chunks come from: AsyncHTTPClient's `async` API, or its delegate API. Either
    /// cancels its request when it goes before the body's end.
    enum Source: Sendable {
        case iterator(SerialIterator<HTTPClientResponse.Body.AsyncIterator>)
        case receiver(ResponseReceiver.Reader)
        /// The body of an answer that refuses an upload as it is sent (see
        /// ``AsyncHTTPClientTransport/refusesUpload(_:statusCode:)``): ended, empty, where the
        /// connection closed under the upload before any of it came (`begun`: some of it
        /// came; a body cut short after that fails, as any other).
        indirect case refusal(Source, begun: Locked<Bool>)
    }

    private let source: Source
    private let ended: Locked<(@Sendable () -> Void)?>
    private let idleLimit: TimeInterval?
    private let url: URL

    init(_ source: Source, idleLimit: TimeInterval?, url: URL, ended: @escaping @Sendable () -> Void) {
        self.source = source
        self.idleLimit = idleLimit
        self.url = url
        self.ended = Locked(ended)
    }

    nonisolated(nonsending) func next() async throws -> Data? {
        do {
            guard let buffer = try await source.next(idleLimit: idleLimit, url: url) else {
                end()
                return nil
            }
            return AsyncHTTPClientTransport.data(buffer)
        } catch {
            end()
            throw error
        }
    }

    private func end() {
        ended.take()?()
    }

    deinit {
        end()
    }
}

extension BodyReader.Source {
    /// The next chunk, or `nil` at the body's end; waited for at most `idleLimit`, if given
    /// (see ``BodyReader``), for a request to `url`.
    nonisolated(nonsending) func next(idleLimit: TimeInterval? = nil, url: URL? = nil) async throws -> ByteBuffer? {
        switch self {
        case .iterator(let iterator):
            guard let idleLimit, let url else { return try await iterator.next() }
            return try await AttemptTimeout.run(idleLimit, url: url) { try await iterator.next() }
        case .receiver(let reader): return try await reader.receiver.next()
        case .refusal(let source, let begun):
            do {
                let chunk = try await source.next(idleLimit: idleLimit, url: url)
                if chunk != nil { begun.withLock { $0 = true } }
                return chunk
            } catch where AsyncHTTPClientTransport.cutOff(error) && !begun.withLock({ $0 }) {
                return nil
            }
        }
    }
}
