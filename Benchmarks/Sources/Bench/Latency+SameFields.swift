import AsyncHTTPClient
import BenchSupport
import Foundation

extension Latency {
    /// Raw AsyncHTTPClient with a Foundation response, sending the two header fields
    /// `AsyncHTTPClientClient` adds to every request (`Accept`, `User-Agent`): the same exchange
    /// on the wire, so that a ratio against it is EndpointKit's own steps alone. For `hammer` and
    /// `paired`.
    static func sameFields(baseURL: URL, httpClient: HTTPClient) -> [Contender] {
        [
            Contender(name: "raw AHC + HTTPURLResponse, the client's fields") { path in
                let address = baseURL.absoluteString + "/" + path
                var request = HTTPClientRequest(url: address)
                request.headers = SameFields.headers
                let response = try await httpClient.execute(request, timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 16 << 20)
                let head = URL(string: address).flatMap { FoundationResponse.make(response.status, response.headers, url: $0) }
                precondition(body.readableBytes > 0 && head != nil)
            }
        ]
    }
}
