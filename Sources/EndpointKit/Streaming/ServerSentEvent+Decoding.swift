import Foundation

extension ServerSentEvent {
    /// Decodes the event's `data` as JSON.
    ///
    /// - Throws: ``EndpointKitError/decodingFailed(_:)`` naming the type and coding path.
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        let body = Data(data.utf8)
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            throw EndpointKitError.decodingFailed(
                DecodingFailure(
                    type: String(describing: T.self), url: nil, statusCode: nil, contentType: "text/event-stream",
                    underlying: error, body: body))
        }
    }
}

extension AsyncSequence where Element == ServerSentEvent {
    /// The events' `data` decoded as JSON values of type `T`; the first that does not decode
    /// ends the sequence with ``EndpointKitError/decodingFailed(_:)``.
    ///
    /// ```swift
    /// for try await quote in client.events(QuoteFeed()).decoded(as: Quote.self) { print(quote) }
    /// ```
    public func decoded<T: Decodable & Sendable>(
        as type: T.Type, decoder: JSONDecoder = JSONDecoder()
    ) -> AsyncThrowingMapSequence<Self, T> {
        map { try $0.decode(T.self, decoder: decoder) }
    }
}
