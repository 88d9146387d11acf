import AsyncHTTPClient
import BenchAPI
import BenchSupport
import EndpointKit
import EndpointKitAsyncHTTPClient
import EndpointKitOpenAPI
import Foundation

extension Latency {
    /// `AsyncHTTPClientClient` with a time limit on each attempt, as a service sets one: the
    /// raw rows give AsyncHTTPClient one too (`timeout: .seconds(30)`); and `URLSessionClient`
    /// with one; and the generated OpenAPI client on `AsyncHTTPClientClient` with the official
    /// AsyncHTTPClient transport's default timeout, a minute. For `hammer` and `paired`.
    static func timeLimited(baseURL: URL, httpClient: HTTPClient) -> [Contender] {
        let client = AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient, timeout: 30)
        let sessionClient = URLSessionClient(baseURL: baseURL, timeout: 30)
        let generated = BenchAPI.Client(
            serverURL: baseURL, transport: EndpointKitTransport(client: AsyncHTTPClientClient(baseURL: baseURL, httpClient: httpClient, timeout: 60)))
        return [
            Contender(name: "AsyncHTTPClientClient async, 30 s timeout") { path in
                let data = try await client.request(RawBytes(path: path))
                precondition(!data.isEmpty)
            },
            Contender(name: "URLSessionClient async, 30 s timeout") { path in
                let data = try await sessionClient.request(RawBytes(path: path))
                precondition(!data.isEmpty)
            },
            Contender(name: "EndpointKit, AsyncHTTPClientClient, 60 s timeout") { _ in
                let book = try await generated.getJSON().ok.body.json
                precondition(book.id == 1)
            },
        ]
    }
}
