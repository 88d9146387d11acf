import BookKit
import DemoServer
import EndpointKit
import XCTest

/// QuoteService against the demo server's Quotable-shaped API.
final class QuoteServiceTests: XCTestCase {
    var server: DemoServer!
    var client: URLSessionClient!
    var quotes: QuoteServiceClient!

    override func setUp() async throws {
        server = try await DemoServer.start()
        client = URLSessionClient(baseURL: server.baseURL.appendingPathComponent("quotable"))
        quotes = QuoteServiceClient(client: client)
    }

    override func tearDown() async throws {
        client.invalidate()
        await server.stop()
    }

    func testARandomQuoteWithATagHasThatTagWithBothAPIs() async throws {
        let quote = try await quotes.randomQuote(tag: "technology")
        XCTAssertTrue(quote.tags.contains("technology"), "\(quote)")
        let viaCompletion = try await withCheckedThrowingContinuation { continuation in
            quotes.randomQuote(tag: "love") { continuation.resume(with: $0) }
        }
        XCTAssertTrue(viaCompletion.tags.contains("love"))
    }

    func testAnUnknownTagIsTheServersMessage() async throws {
        do {
            _ = try await quotes.randomQuote(tag: "no-such-tag")
            XCTFail("expected a 404")
        } catch let error as APIError {
            XCTAssertEqual(error.status, 404)
            XCTAssertEqual(error.error, "Could not find any matching quotes")
        }
    }

    func testQuotesByTagArePagedInsideTheEnvelope() async throws {
        let page = try await quotes.quotes(tagged: "wisdom", page: 1)
        XCTAssertEqual(page.totalCount, 3)
        XCTAssertEqual(page.results.map(\.author), ["Socrates", "Socrates", "Will Durant"])
        let beyond = try await quotes.quotes(tagged: "wisdom", page: 2)
        XCTAssertEqual(beyond.results, [])
    }

    func testAuthorSearch() async throws {
        let found = try await quotes.searchAuthors("socr")
        XCTAssertEqual(found.results.map(\.name), ["Socrates"])
        XCTAssertEqual(found.results.first?.quoteCount, 2)
    }
}
