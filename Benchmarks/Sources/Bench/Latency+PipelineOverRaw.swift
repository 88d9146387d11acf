import AsyncHTTPClient
@_spi(Transport) import EndpointKit
import BenchSupport
import Foundation

extension Latency {
    /// EndpointKit's pipeline over a transport that uses AsyncHTTPClient exactly as the raw
    /// delegate row does: what the pipeline costs, apart from AsyncHTTPClientClient's transport.
    static func pipelineOverRaw(baseURL: URL, httpClient: HTTPClient) -> [Contender] {
        let pipeline = Pipeline(
            requestAdapter: BaseRequestAdapter(baseURL: baseURL), responseObserver: nil, retryPolicy: .none, timeout: nil,
            maximumBodySize: 100 << 20, transport: RawDelegateTransport(httpClient: httpClient))
        return [
            Contender(name: "pipeline over raw AHC delegate API") { path in
                let data = try await pipeline.perform(RequestCall(RawBytes(path: path)))
                precondition(!data.isEmpty)
            }
        ]
    }
}
