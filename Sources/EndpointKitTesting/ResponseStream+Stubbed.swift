@_spi(Transport) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ResponseStream {
    /// A stream for a ``StubClient`` stub to answer `stream` calls with (and so a generated
    /// OpenAPI client on `EndpointKitTransport`): `status` and `headers` as its head, `chunks`
    /// as its body, for a request to `url`. Throws ``EndpointKit/EndpointKitError/invalidResponse(url:)``
    /// if Foundation cannot make such a head.
    ///
    /// ```swift
    /// client.stub(matching: { $0.url?.path == "/books/1" }) { request in
    ///     try ResponseStream.stubbed(url: request.url, headers: ["Content-Type": "application/json"],
    ///                            chunks: [Data(#"{"id":1,"title":"Dune"}"#.utf8)])
    /// }
    /// ```
    public static func stubbed(
        url: URL?, status: Int = 200, headers: [String: String] = [:], chunks: [Data] = []
    ) throws -> ResponseStream {
        let target = url ?? URL(fileURLWithPath: "/")
        guard let response = HTTPURLResponse(url: target, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        else { throw EndpointKitError.invalidResponse(url: url) }
        return ResponseStream(
            response: response,
            chunks: AsyncThrowingStream { continuation in
                for chunk in chunks { continuation.yield(chunk) }
                continuation.finish()
            })
    }
}
