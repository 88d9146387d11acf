import EndpointKit
import XCTest

@testable import EndpointKitAsyncHTTPClient

/// The shared client scenarios (linked from EndpointKit's tests), with `AsyncHTTPClientClient`.
final class AsyncHTTPClientClientTests: XCTestCase {
    override func tearDown() async throws {
        XCTAssertEqual(AsyncHTTPClientClient.unclosedClientCount, 0, "a client was dropped without shutdown()")
        try await super.tearDown()
    }

    func testAsyncHTTPClientClientPassesEveryScenario() async throws {
        let scenarios = ClientScenarios(
            name: "AsyncHTTPClientClient",
            makeClient: { url, options in
                AsyncHTTPClientClient(
                    baseURL: url, responseObserver: options.observer, retryPolicy: options.retryPolicy,
                    timeout: options.timeout, maximumBodySize: options.maximumBodySize)
            },
            close: { try? await ($0 as? AsyncHTTPClientClient)?.shutdown() })
        try await scenarios.runAll()
    }

    func testAShutDownClientRefusesCalls() async throws {
        let server = try await TestServer.start(Routes.standard)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL)
        _ = try await client.request(GetBook())
        try await client.shutdown()
        do {
            _ = try await client.request(GetBook())
            XCTFail("expected an error")
        } catch EndpointKitError.clientInvalidated {}
        try await client.shutdown()
        await server.shutdown()
    }
}
