@_spi(Transport) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A generated operation that sends a body: its ``OperationEndpoint``, with the body produced
/// as it is sent.
struct OperationUpload: UploadEndpoint, StatusAccepting {
    typealias Content = Data

    let operation: OperationEndpoint
    let body: ProducedBody

    var callName: String? { operation.callName }
    var cachePolicy: CachePolicy? { operation.cachePolicy }

    func makeRequest() throws -> (URLRequest, UploadEndpointBody) { (operation.request, .produced(body)) }

    func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        try operation.validate(request, response: response, data: data)
    }

    func accepts(statusCode: Int) -> Bool {
        operation.accepts(statusCode: statusCode)
    }

    func content(from response: URLResponse?, with body: Data) throws -> Data { body }
}
