import AsyncHTTPClient
@_spi(Locking) import EndpointKit
import Foundation
import NIOCore

/// Reads a response body one chunk per call, for a stream that pulls only when its reader asks,
/// and tells `ended` once when the body has been read to the end, failed, or been dropped.
///
/// `@unchecked Sendable`: the iterator is touched only by `next()`, and the one stream that
/// owns this reader calls `next()` again only after the previous call returned
/// (`AsyncThrowingStream(unfolding:)` awaits each element before asking for the next).
final class BodyReader: @unchecked Sendable {
    private var iterator: HTTPClientResponse.Body.AsyncIterator
    private let ended: Locked<(@Sendable () -> Void)?>

    init(_ body: HTTPClientResponse.Body, ended: @escaping @Sendable () -> Void) {
        iterator = body.makeAsyncIterator()
        self.ended = Locked(ended)
    }

    func next() async throws -> Data? {
        do {
            guard let buffer = try await iterator.next() else {
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
        ended.withLock { ended in
            defer { ended = nil }
            return ended
        }?()
    }

    deinit {
        end()
    }
}
