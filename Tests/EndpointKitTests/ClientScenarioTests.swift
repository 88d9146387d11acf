import EndpointKit
import XCTest

/// The shared client scenarios, with `URLSessionClient`.
final class ClientScenarioTests: XCTestCase {
    func testURLSessionClientPassesEveryScenario() async throws {
        let scenarios = ClientScenarios(
            name: "URLSessionClient",
            makeClient: { url, options in
                URLSessionClient(
                    baseURL: url, responseObserver: options.observer, retryPolicy: options.retryPolicy,
                    timeout: options.timeout, maximumBodySize: options.maximumBodySize)
            },
            close: { ($0 as? URLSessionClient)?.invalidate() })
        try await scenarios.runAll()
    }
}
