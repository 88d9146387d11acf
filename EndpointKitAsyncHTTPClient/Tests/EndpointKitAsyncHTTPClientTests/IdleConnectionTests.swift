import EndpointKit
import EndpointKitAsyncHTTPClient
import Foundation
import NIOCore
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Pooled connections that the server closes as idle, as a request is handed one.
final class IdleConnectionTests: XCTestCase {
    /// A POST, with a body, to a route whose server closes the connection after 30 ms idle.
    private struct PostBook: JSONEndpoint {
        typealias Content = Book
        var headers: [String: String] = [:]
        func makeRequest() throws -> URLRequest {
            var request = try URLRequest(.post, "idle-close", headers: headers)
            request.httpBody = Data(#"{"title":"Dune"}"#.utf8)
            return request
        }
    }

    /// AsyncHTTPClient refuses to start a request on a connection that has closed since its
    /// pool handed it out (`ChannelError.ioOnClosedChannel`): not a byte was sent, so even a
    /// POST is sent again, on a fresh connection. POSTs sent about when the server closes the
    /// connection: before, about one in twenty failed so (15 of 300). A POST that failed after
    /// it may have been sent (the connection closed or reset under it) is not sent again.
    func testARequestNotSentOnAClosedConnectionIsSentAgain() async throws {
        let server = try await TestServer.start(Routes.standard)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL)
        var succeeded = 0
        var notSent: [String] = []
        for attempt in 0..<150 {
            do {
                let book = try await client.request(PostBook())
                XCTAssertEqual(book, Routes.books[0])
                succeeded += 1
            } catch EndpointKitError.transportFailed(_, let underlying as URLError) {
                XCTAssertEqual(underlying.code, .networkConnectionLost, "\(underlying)")
                // The cause, as the message names it (an NSError on Linux does not cast back).
                if underlying.localizedDescription.hasSuffix("\(ChannelError.ioOnClosedChannel)") { notSent.append("\(attempt)") }
            }
            try await Task.sleep(nanoseconds: UInt64(25_000_000 + attempt % 20 * 500_000))
        }
        XCTAssertEqual(notSent, [], "failed without being sent")
        XCTAssertGreaterThan(succeeded, 110)
        try await client.shutdown()
        await server.shutdown()
    }

    /// A POST with an `Idempotency-Key` is also sent again when the connection closed or
    /// reset before any answer, as an idempotent method is: none of them fails. Without the
    /// key, about one in twenty-five fails so.
    func testAPostWithAnIdempotencyKeyIsSentAgainWhenItsConnectionCloses() async throws {
        let server = try await TestServer.start(Routes.standard)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL)
        var failures: [String] = []
        for attempt in 0..<150 {
            do {
                _ = try await client.request(PostBook(headers: ["Idempotency-Key": "book-\(attempt)"]))
            } catch {
                failures.append("\(attempt): \(error)")
            }
            try await Task.sleep(nanoseconds: UInt64(25_000_000 + attempt % 20 * 500_000))
        }
        XCTAssertEqual(failures, [])
        try await client.shutdown()
        await server.shutdown()
    }
}
