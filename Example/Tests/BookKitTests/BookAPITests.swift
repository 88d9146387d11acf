import BookAPI
import DemoServer
@_spi(Locking) import EndpointKit
import EndpointKitOpenAPI
import XCTest

/// The book API's generated client (Sources/BookAPI/openapi.yaml) on EndpointKit, against the
/// demo server: documented answers, the operation ID as the call's name.
final class BookAPITests: XCTestCase {
    func testTheGeneratedClientRunsOnEndpointKit() async throws {
        let server = try await DemoServer.start()
        let names = Names()
        let client = URLSessionClient(baseURL: server.baseURL, monitors: [names], retryPolicy: .default)
        let api = BookAPI.Client(serverURL: server.baseURL, transport: EndpointKitTransport(client: client))
        let page = try await api.listBooks(query: .init(page: 1, perPage: 2)).ok.body.json
        XCTAssertEqual(page.map(\.title), ["Dune", "Solaris"])
        guard case .notFound(let missing) = try await api.getBook(path: .init(id: 999)) else { return XCTFail("404") }
        XCTAssertEqual(try missing.body.json.error, "no book with id 999")
        let created = try await api.createBook(body: .json(.init(title: "Ubik", author: "Philip K. Dick"))).created.body.json
        let fetched = try await api.getBook(path: .init(id: created.id)).ok.body.json
        XCTAssertEqual(fetched.title, "Ubik")
        XCTAssertEqual(names.all, ["listBooks", "getBook", "createBook", "getBook"])
        client.invalidate()
        await server.stop()
    }
}

/// Each call's name, in order.
struct Names: CallMonitor {
    private let names = EndpointKit.Locked<[String]>([])
    var all: [String] { names.withLock { $0 } }
    func callStarted(_ event: CallStarted) { names.withLock { $0.append(event.call.endpoint) } }
}
