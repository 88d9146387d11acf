import EndpointKit
import EndpointKitOpenAPI
import EndpointKitTesting
import Foundation
@_spi(Generated) import OpenAPIRuntime
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

    /// `.ok` on another answer throws the runtime's error, whose description writes the whole
    /// answer, header fields and all; `redactedDescription(of:)` names the answer found, and
    /// nothing of its fields.
    func testAnUnexpectedAnswerIsWrittenWithoutItsFields() async throws {
        let stub = StubClient()
        stub.stub(matching: { $0.url?.path == "/v1/books/1" }) { request in
            try ResponseStream.stubbed(url: request.url, status: 502, headers: ["Set-Cookie": "id=c-s3cret", "X-Token": "t-s3cret"])
        }
        stub.stub(matching: { $0.url?.path == "/v1/books/2" }) { request in
            try ResponseStream.stubbed(url: request.url, status: 404, headers: ["Set-Cookie": "id=c-s3cret"])
        }
        stub.stub(matching: { $0.url?.path == "/v1/books/3" }) { request in
            try ResponseStream.stubbed(url: request.url, headers: ["Content-Type": "text/plain"], chunks: [Data("b-s3cret".utf8)])
        }
        let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: EndpointKitTransport(client: stub))
        let expected = [
            1: "Unexpected response: expected ok, got an undocumented 502",
            2: "Unexpected response: expected ok, got notFound",
        ]
        for (id, words) in expected {
            do {
                _ = try await client.getBook(path: .init(id: id)).ok
                XCTFail("\(id): answered")
            } catch {
                if id == 1 { XCTAssertTrue("\(error)".contains("c-s3cret"), "the runtime no longer writes the fields: \(error)") }
                XCTAssertEqual(EndpointKitTransport.redactedDescription(of: error), words)
            }
        }
        // A content type the operation does not document: the runtime's ClientError.
        do {
            _ = try await client.getBook(path: .init(id: 3)).ok.body.json
            XCTFail("text read as JSON")
        } catch {
            let line = EndpointKitTransport.redactedDescription(of: error)
            XCTAssertTrue(line.hasPrefix("getBook, GET https://api.example.com/v1/books/3 (HTTP 200): "), line)
            XCTAssertFalse(line.contains("s3cret"), line)
        }
        // A body accessor (`.json`) on an answer of another documented content type.
        do {
            try throwUnexpectedResponseBody(expectedContent: "application/json", body: Body.plainText(HTTPBody("b-s3cret")))
        } catch {
            XCTAssertEqual(EndpointKitTransport.redactedDescription(of: error), "Unexpected response body: expected application/json, got plainText")
        }
    }
}

/// A response body of two content types, as generated.
private enum Body: Sendable {
    case json(String)
    case plainText(HTTPBody)
}
