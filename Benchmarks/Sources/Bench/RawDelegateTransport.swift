import AsyncHTTPClient
@_spi(Transport) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends as the raw delegate row does (AsyncHTTPClient's delegate API with its
/// `ResponseAccumulator`), for EndpointKit's pipeline to run over: a small GET, nothing more.
struct RawDelegateTransport: Transport {
    let httpClient: HTTPClient

    nonisolated(nonsending) func send(
        _ outgoing: Outgoing, into file: DownloadFile?, timeout: TimeInterval?, bodyLimit: Int, progress: ProgressSink?
    ) async throws -> ReceivedResponse {
        guard let url = outgoing.request.url else { throw EndpointKitError.invalidURL("<no URL>") }
        let request = try HTTPClient.Request(url: url.absoluteString)
        let response = try await httpClient.execute(
            request: request, delegate: ResponseAccumulator(request: request), eventLoop: .indifferent, deadline: nil, logger: nil
        ).get()
        let fields = response.headers.map { (name: $0.name, value: $0.value) }
        return ReceivedResponse(
            head: ResponseHead(url: url, statusCode: Int(response.status.code), version: "HTTP/1.1", fields: fields),
            body: response.body.map { Data($0.readableBytesView) } ?? Data(), fileURL: nil)
    }

    /// Not measured.
    nonisolated(nonsending) func stream(_ outgoing: Outgoing, timeout: TimeInterval?) async throws -> ResponseStream {
        throw CancellationError()
    }
}
