import Foundation
import XCTest

import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Starts a fresh ``TestServer`` with the standard routes before each test and a client for
/// it; afterwards invalidates the client and shuts the server down.
class ServerTestCase: XCTestCase {
    var server: TestServer!
    var client: URLSessionClient!
    let observed = ObserverLog()

    /// The routes this test class serves; the standard ones unless overridden.
    var routes: TestServer.Handler { Routes.standard }

    override func setUp() async throws {
        try await super.setUp()
        server = try await TestServer.start(routes)
        client = URLSessionClient(baseURL: server.baseURL, responseObserver: observed.observer)
    }

    override func tearDown() async throws {
        client?.invalidate(cancellingTasks: true)
        client = nil
        await server?.shutdown()
        server = nil
        try await super.tearDown()
    }

    /// Runs a completion-handler call and waits for its single result.
    func complete<T: Endpoint>(
        _ endpoint: T, on client: URLSessionClient? = nil
    ) async -> Result<T.Content, any Error> {
        let client = client ?? self.client!
        return await withCheckedContinuation { continuation in
            client.request(endpoint) { continuation.resume(returning: $0) }
        }
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
