import AsyncHTTPClient
import Foundation
import NIOCore

/// Reads a response body one chunk per call, for a stream that pulls only when its reader asks.
///
/// `@unchecked Sendable`: the iterator is touched only by `next()`, and the one stream that
/// owns this reader calls `next()` again only after the previous call returned
/// (`AsyncThrowingStream(unfolding:)` awaits each element before asking for the next).
final class BodyReader: @unchecked Sendable {
    private var iterator: HTTPClientResponse.Body.AsyncIterator

    init(_ body: HTTPClientResponse.Body) {
        iterator = body.makeAsyncIterator()
    }

    func next() async throws -> Data? {
        try await iterator.next().map(AsyncHTTPClientTransport.data)
    }
}
