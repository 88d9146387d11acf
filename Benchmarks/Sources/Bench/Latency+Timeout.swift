import AsyncHTTPClient
import BenchSupport
import EndpointKit
import EndpointKitAsyncHTTPClient
import Foundation

extension Latency {
    /// `AsyncHTTPClientClient` with a time limit on each attempt, as a service sets one: the
    /// raw rows give AsyncHTTPClient one too (`timeout: .seconds(30)`); and `URLSessionClient`
    /// with one. For `hammer` and `paired`.
    static func timeLimited(baseURL: URL, httpClient: HTTPClient) -> [Contender] {
        let client = AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient, timeout: 30)
        let sessionClient = URLSessionClient(baseURL: baseURL, timeout: 30)
        return [
            Contender(name: "AsyncHTTPClientClient async, 30 s timeout") { path in
                let data = try await client.request(RawBytes(path: path))
                precondition(!data.isEmpty)
            },
            Contender(name: "URLSessionClient async, 30 s timeout") { path in
                let data = try await sessionClient.request(RawBytes(path: path))
                precondition(!data.isEmpty)
            },
        ]
    }
}
