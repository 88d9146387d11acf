import AsyncHTTPClient
@_spi(Locking) import EndpointKit
import Foundation
import NIOCore

/// Reads a response body one chunk per call, for a stream that pulls only when its reader asks,
/// and tells `ended` once when the body has been read to the end, failed, or been dropped.
final class BodyReader: Sendable {
    private let iterator: SerialIterator<HTTPClientResponse.Body.AsyncIterator>
    private let ended: Locked<(@Sendable () -> Void)?>

    init(_ body: HTTPClientResponse.Body, ended: @escaping @Sendable () -> Void) {
        iterator = SerialIterator(body.makeAsyncIterator())
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
        ended.take()?()
    }

    deinit {
        end()
    }
}
