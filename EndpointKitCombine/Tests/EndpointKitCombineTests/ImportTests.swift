import EndpointKit
import EndpointKitCombine
import Foundation
import XCTest

// This file imports neither Combine nor OpenCombine: `import EndpointKitCombine` alone must
// bring `AnyCancellable`, `sink` and `store(in:)`, on Linux and on Apple platforms.

/// What a new user writes first, with one import.
final class ImportTests: XCTestCase {
    func testOneImportIsEnoughForSinkAndAnyCancellable() async throws {
        let server = try await TestServer.start(FaultRoutes().handler)
        let client = URLSessionClient(baseURL: server.baseURL)
        var bag = Set<AnyCancellable>()
        let books = Guarded<[Book]>([])
        let done = expectation(description: "finished")
        client.requestPublisher(ListBooks())
            .sink(receiveCompletion: { _ in done.fulfill() }, receiveValue: { value in books.withLock { $0 = value } })
            .store(in: &bag)
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(books.withLock { $0 }, Routes.books)
        XCTAssertEqual(bag.count, 1)
        client.invalidate()
        await server.shutdown()
    }
}
