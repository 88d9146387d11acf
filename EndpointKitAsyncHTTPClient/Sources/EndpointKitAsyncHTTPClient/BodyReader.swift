import AsyncHTTPClient
@_spi(Locking) import EndpointKit
import Foundation
import NIOCore

/// Reads a response body one chunk per call, for a stream that pulls only when its reader asks,
/// and tells `ended` once when the body has been read to the end, failed, or been dropped.
final class BodyReader: Sendable {
    /// Where the chunks come from: AsyncHTTPClient's `async` API, or its delegate API. Either
    /// cancels its request when it goes before the body's end.
    enum Source: Sendable {
        case iterator(SerialIterator<HTTPClientResponse.Body.AsyncIterator>)
        case receiver(ResponseReceiver.Reader)
    }

    private let source: Source
    private let ended: Locked<(@Sendable () -> Void)?>

    init(_ source: Source, ended: @escaping @Sendable () -> Void) {
        self.source = source
        self.ended = Locked(ended)
    }

    func next() async throws -> Data? {
        do {
            guard let buffer = try await source.next() else {
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
    /// The next chunk, or `nil` at the body's end.
    func next() async throws -> ByteBuffer? {
        switch self {
        case .iterator(let iterator): try await iterator.next()
        case .receiver(let reader): try await reader.receiver.next()
        }
    }
}
