import AsyncHTTPClient
import BenchSupport
import Foundation

extension Latency {
    /// Raw AsyncHTTPClient with a Foundation response, sending the two header fields
    /// `AsyncHTTPClientClient` adds to every request (see `SameFields`). For `hammer` and
    /// `paired`.
    static func sameFields(baseURL: URL, httpClient: HTTPClient) -> [Contender] {
        [
            Contender(name: "raw AHC + HTTPURLResponse, the client's fields") { path in
                let answered = try await SameFields.get(baseURL.absoluteString + "/" + path, with: httpClient)
                precondition(answered)
            }
        ]
    }
}
