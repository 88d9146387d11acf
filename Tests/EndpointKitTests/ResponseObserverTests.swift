import Foundation
import XCTest

@testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The observer runs exactly once per call, with the final outcome, before the caller sees it.
final class ResponseObserverTests: ServerTestCase {
    func testSuccessIsObservedOnceWithRequestResponseAndBody() async throws {
        _ = try await client.request(GetBook())
        XCTAssertEqual(observed.calls.count, 1)
        let call = try XCTUnwrap(observed.calls.first)
        XCTAssertEqual(call.request?.url?.path, "/books/1")
        XCTAssertEqual(call.response?.statusCode, 200)
        XCTAssertEqual(try JSONDecoder().decode(Book.self, from: call.data ?? Data()), Routes.books[0])
        XCTAssertNil(call.error)
    }

    func testEachKindOfFailureIsObservedOnceWithItsError() async throws {
        let refused = try await TestServer.start(Routes.standard)
        let refusedURL = refused.baseURL
        await refused.shutdown()

        let validation = await complete(PathEndpoint(path: "status", query: [.init(name: "code", value: "500")]))
        let decoding = await complete(GetBook(path: "malformed"))
        let transportClient = URLSessionClient(baseURL: refusedURL, responseObserver: observed.observer)
        defer { transportClient.invalidate() }
        let transport = await complete(GetBook(), on: transportClient)

        XCTAssertEqual(observed.calls.count, 3)
        let calls = observed.calls
        guard case EndpointKitError.unacceptableStatus? = calls[0].error, case .unacceptableStatus? = validation.error as? EndpointKitError
        else { return XCTFail("\(String(describing: calls[0].error))") }
        XCTAssertEqual(calls[0].response?.statusCode, 500)
        guard case EndpointKitError.decodingFailed? = calls[1].error, case .decodingFailed? = decoding.error as? EndpointKitError
        else { return XCTFail("\(String(describing: calls[1].error))") }
        XCTAssertEqual(calls[1].data.map { String(decoding: $0, as: UTF8.self) }, #"{"id": 1, "title": "Du"#)
        guard case EndpointKitError.transportFailed? = calls[2].error, case .transportFailed? = transport.error as? EndpointKitError
        else { return XCTFail("\(String(describing: calls[2].error))") }
        XCTAssertNil(calls[2].response)
        XCTAssertEqual(calls[2].request?.url?.port, refusedURL.port)
    }

    func testObserverRunsBeforeTheCallerSeesTheResult() async throws {
        let observed = self.observed
        for _ in 0..<50 {
            let before = observed.calls.count
            _ = try await client.request(GetBook())
            XCTAssertEqual(observed.calls.count, before + 1)
            let seenInHandler = await withCheckedContinuation { continuation in
                client.request(GetBook()) { _ in continuation.resume(returning: observed.calls.count) }
            }
            XCTAssertEqual(seenInHandler, before + 2)
        }
    }
}
