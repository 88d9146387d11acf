@_spi(Transport) @_spi(Locking) import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `Request` without a validation of its own reads only the status of the answer's head, so
/// its call never asks for the Foundation response a transport would have to build (about
/// 1.2 µs a field on Linux); any other endpoint, and any refused answer, gets one.
final class StatusOnlyEndpointTests: XCTestCase {
    private struct Book: Codable, Sendable, Equatable { var id: Int }

    /// A custom endpoint: it is handed the response it may read.
    private struct CustomBook: Endpoint {
        func makeRequest() throws -> URLRequest { try URLRequest(.get, "books/1") }
        func content(from response: URLResponse?, with body: Data) throws -> Book {
            XCTAssertNotNil(response)
            return try JSONDecoder().decode(Book.self, from: body)
        }
    }

    /// A custom endpoint the size of a `Request` (which is the only stored value): the call
    /// looks at an endpoint's size before casting it, and this one is no `Request` either.
    private struct WrappedRequest: Endpoint {
        let request = Request<Book>.get("books/1", as: Book.self)
        func makeRequest() throws -> URLRequest { try request.makeRequest() }
        func content(from response: URLResponse?, with body: Data) throws -> Book {
            XCTAssertNotNil(response)
            return try request.content(from: response, with: body)
        }
    }

    private let url = URL(string: "http://127.0.0.1:1/books/1")!
    private let body = Data(#"{"id":1}"#.utf8)

    /// A head that counts how often its Foundation response is built.
    private func head(status: Int, builds: Locked<Int>) -> ReceivedResponse {
        let head = ResponseHead(statusCode: status) { [url] in
            builds.withLock { $0 += 1 }
            return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
        }
        return ReceivedResponse(head: head, body: body, fileURL: nil)
    }

    func testARequestReadsTheStatusAndTheBodyOnly() throws {
        let builds = Locked(0)
        let call = RequestCall(Request<Book>.get("books/1", as: Book.self))
        let received = head(status: 200, builds: builds)
        try call.validate(URLRequest(url: url), received)
        XCTAssertEqual(try call.content(received), Book(id: 1))
        XCTAssertEqual(builds.withLock { $0 }, 0)
    }

    func testARefusedStatusIsReportedWithItsResponse() throws {
        let builds = Locked(0)
        let call = RequestCall(Request<Book>.get("books/1", as: Book.self))
        let received = head(status: 404, builds: builds)
        XCTAssertThrowsError(try call.validate(URLRequest(url: url), received)) { error in
            guard case EndpointKitError.unacceptableStatus(let failure) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(failure.statusCode, 404)
            XCTAssertEqual(failure.body, self.body)
        }
        XCTAssertEqual(builds.withLock { $0 }, 1)
    }

    func testAValidationOfItsOwnOrACustomEndpointGetsTheResponse() throws {
        let builds = Locked(0)
        let seen = Locked<Int?>(nil)
        let validated = RequestCall(
            Request<Book>.get("books/1", as: Book.self).validating { _, response, _ in seen.withLock { $0 = response.statusCode } })
        let received = head(status: 200, builds: builds)
        try validated.validate(URLRequest(url: url), received)
        XCTAssertEqual(seen.withLock { $0 }, 200)
        let custom = RequestCall(CustomBook())
        try custom.validate(URLRequest(url: url), received)
        XCTAssertEqual(try custom.content(received), Book(id: 1))
        XCTAssertEqual(builds.withLock { $0 }, 1, "built once, for both")
        XCTAssertEqual(MemoryLayout<WrappedRequest>.size, MemoryLayout<Request<Book>>.size)
        let wrapped = RequestCall(WrappedRequest())
        let other = head(status: 200, builds: builds)
        try wrapped.validate(URLRequest(url: url), other)
        XCTAssertEqual(try wrapped.content(other), Book(id: 1))
        XCTAssertEqual(builds.withLock { $0 }, 2, "built for the endpoint of a Request's size")
    }
}
