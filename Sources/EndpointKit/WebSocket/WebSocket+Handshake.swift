import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebSocket {
    /// The subprotocol a server's 101 chose (its `Sec-WebSocket-Protocol`, `chosen`), once
    /// checked against those `request` offered: `nil` when it chose none.
    ///
    /// RFC 6455 (4.1) has a client fail the connection when the server chooses a subprotocol
    /// the handshake did not offer, or any when none was offered. SPI for EndpointKit's client
    /// packages, which call it before the socket opens.
    /// - Throws: ``EndpointKitError/transportFailed(url:underlying:)`` with
    ///   `URLError.badServerResponse`. The error names neither value: some services carry a
    ///   credential in this field.
    @_spi(Transport) public static func checkedSubprotocol(_ chosen: String?, offeredIn request: URLRequest) throws -> String? {
        guard let chosen else { return nil }
        let offered = (request.field(named: "Sec-WebSocket-Protocol") ?? "").split(separator: ",")
        if offered.contains(where: { $0.trimmingCharacters(in: .whitespaces) == chosen }) { return chosen }
        throw handshakeFailure("chose a WebSocket subprotocol (Sec-WebSocket-Protocol) that the handshake did not offer", request: request)
    }

    /// The error of a 101 that opens no socket for `request`: ``EndpointKitError/transportFailed(url:underlying:)``
    /// with `URLError.badServerResponse`, whose words are "The server at HOST port PORT" and
    /// `what` it did. SPI for EndpointKit's client packages.
    @_spi(Transport) public static func handshakeFailure(_ what: String, request: URLRequest) -> EndpointKitError {
        let place = request.url.map { "\($0.host ?? "the server") port \($0.effectivePort)" } ?? "the server"
        var details: [String: Any] = [NSLocalizedDescriptionKey: "The server at \(place) \(what)"]
        details[NSURLErrorFailingURLErrorKey] = request.url
        return .transportFailed(url: request.url, underlying: URLError(.badServerResponse, userInfo: details))
    }
}
