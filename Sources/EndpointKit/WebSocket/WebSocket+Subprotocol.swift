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
        let offered = (request.value(forHTTPHeaderField: "Sec-WebSocket-Protocol") ?? "").split(separator: ",")
        if offered.contains(where: { $0.trimmingCharacters(in: .whitespaces) == chosen }) { return chosen }
        let place = request.url.map { "\($0.host ?? "the server") port \($0.effectivePort)" } ?? "the server"
        let words = "The server at \(place) chose a WebSocket subprotocol (Sec-WebSocket-Protocol) that the handshake did not offer"
        var details: [String: Any] = [NSLocalizedDescriptionKey: words]
        details[NSURLErrorFailingURLErrorKey] = request.url
        throw EndpointKitError.transportFailed(url: request.url, underlying: URLError(.badServerResponse, userInfo: details))
    }
}
