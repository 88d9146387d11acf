import AsyncHTTPClient
import Foundation
import NIOHTTP1

/// Raw AsyncHTTPClient sending the header fields `AsyncHTTPClientClient` adds to every request
/// (its transport's `defaultFields`): the same exchange on the wire, so that a ratio against it
/// is EndpointKit's own steps alone.
public enum SameFields {
    /// `Accept: */*` and EndpointKit's `User-Agent`, as the client sends them.
    public static let headers: HTTPHeaders = ["Accept": "*/*", "User-Agent": "EndpointKit (AsyncHTTPClient)"]

    /// A GET of `address` through AsyncHTTPClient's `async` API with ``headers``, its body
    /// collected and the Foundation response an `Endpoint` is given built, as the raw row with
    /// an `HTTPURLResponse` does: whether both came back.
    public static func get(_ address: String, with httpClient: HTTPClient) async throws -> Bool {
        var request = HTTPClientRequest(url: address)
        request.headers = headers
        let response = try await httpClient.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 << 20)
        let head = URL(string: address).flatMap { FoundationResponse.make(response.status, response.headers, url: $0) }
        return body.readableBytes > 0 && head != nil
    }
}
