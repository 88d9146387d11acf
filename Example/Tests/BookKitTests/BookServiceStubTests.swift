import BookKit
import EndpointKitTesting
import XCTest

/// Testing a service without a network: the documented way, with `StubClient`.
final class BookServiceStubTests: XCTestCase {
    func testTheServiceMapsEndpointsAndErrors() async throws {
        let client = StubClient()
        client.stub(ListBooksEndpoint.self) { _ in [Book(id: 1, title: "Dune", author: "Frank Herbert")] }
        client.stub(GetBookEndpoint.self, error: APIError(status: 404, error: "no book with id 2"))
        let books = BookServiceClient(client: client)

        let listed = try await books.fetchBooks()
        XCTAssertEqual(listed.map(\.title), ["Dune"])
        do {
            _ = try await books.book(id: 2)
            XCTFail("expected an error")
        } catch let error as APIError {
            XCTAssertEqual(error.status, 404)
        }
        XCTAssertEqual(client.calls.map(\.endpointType), ["ListBooksEndpoint", "GetBookEndpoint"])
        XCTAssertEqual(client.calls.first?.request?.url?.query, "page=1&per_page=20")
    }
}
