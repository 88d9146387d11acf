import EndpointKit
import EndpointKitOpenAPI
import Foundation
import XCTest

extension XCTestCase {
    /// Runs `body` with a generated client over each of `clients` (each made for a fresh test
    /// server and its routes); a thrown error fails the test, naming the client.
    func withGeneratedClients(
        over clients: [(String, (URL, FaultRoutes) -> any EndpointKit.Client)],
        _ body: (String, Client, TestServer, FaultRoutes) async throws -> Void
    ) async throws {
        for (name, make) in clients {
            let faults = FaultRoutes()
            let server = try await TestServer.start(faults.handler)
            let endpointKit = make(server.baseURL, faults)
            let generated = Client(serverURL: server.baseURL, transport: EndpointKitTransport(client: endpointKit))
            do {
                try await body(name, generated, server, faults)
            } catch {
                XCTFail("\(name): \(error)")
            }
            try await endpointKit.shutdown()
            await server.shutdown()
        }
    }
}
