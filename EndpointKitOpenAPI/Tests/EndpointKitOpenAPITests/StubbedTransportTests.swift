import EndpointKit
import EndpointKitOpenAPI
import EndpointKitTesting
import Foundation
import OpenAPIRuntime
import XCTest

/// A generated client's operations answered by a ``StubClient``, as a user's own tests do.
final class StubbedTransportTests: XCTestCase {
    func testAStubbedStreamAnswersAGeneratedOperation() async throws {
        let stub = StubClient()
        stub.stub(matching: { $0.url?.path == "/v1/books/1" }) { request in
            try ResponseStream.stubbed(
                url: request.url, headers: ["Content-Type": "application/json"],
                chunks: [Data(#"{"id":1,"#.utf8), Data(#""title":"Dune"}"#.utf8)])
        }
        stub.stub(matching: { $0.url?.path == "/v1/books/2" }) { request in
            try ResponseStream.stubbed(url: request.url, status: 404)
        }
        let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: EndpointKitTransport(client: stub))
        let book = try await client.getBook(path: .init(id: 1)).ok.body.json
        XCTAssertEqual(book.title, "Dune")
        guard case .notFound = try await client.getBook(path: .init(id: 2)) else { return XCTFail("404") }
        XCTAssertEqual(stub.calls.map { $0.request?.url?.absoluteString }, ["https://api.example.com/v1/books/1", "https://api.example.com/v1/books/2"])
    }
}
