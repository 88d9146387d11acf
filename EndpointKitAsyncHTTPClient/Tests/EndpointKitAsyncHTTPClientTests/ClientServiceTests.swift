import EndpointKitServiceLifecycle
import Logging
import XCTest

/// The client in a `ServiceGroup`: a graceful shutdown lets calls in flight finish within the
/// grace period, refuses new ones, and leaves nothing running.
final class ClientServiceTests: XCTestCase {
    private let logger = Logger(label: "ClientServiceTests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Waits until `client` refuses calls (the group's shutdown has reached it).
    private func waitUntilRefusing(_ client: AsyncHTTPClientClient) async throws {
        for _ in 0..<400 {
            do {
                _ = try await client.request(.get("books", as: [Book].self))
            } catch EndpointKitError.clientInvalidated {
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTFail("the client kept taking calls after the group began to shut down")
    }

    func testAGracefulShutdownLetsCallsInFlightFinish() async throws {
        let faults = FaultRoutes()
        let server = try await TestServer.start(faults.handler)
        let unclosed = AsyncHTTPClientClient.unclosedClientCount
        for round in 1...3 {
            let client = AsyncHTTPClientClient(baseURL: server.baseURL)
            let group = ServiceGroup(services: [ClientService(client, gracePeriod: .seconds(5))], logger: logger)
            let running = Task { try await group.run() }
            let slow = Task { try await client.request(.get("hold?seconds=0.4&key=\(UUID())", as: Attempt.self)) }
            let stream = Task {
                var count = 0
                for try await chunk in try await client.stream(.call(.get, "stream")) { count += chunk.count }
                return count
            }
            let started = await waitUntil(timeout: 5) {
                let paths = server.requests.map(\.path)
                return paths.filter { $0 == "/hold" }.count == round && paths.filter { $0 == "/stream" }.count == round
            }
            XCTAssertTrue(started)
            await group.triggerGracefulShutdown()
            try await waitUntilRefusing(client)
            let answer = try await slow.value
            XCTAssertEqual(answer.attempt, 1)
            let streamed = try await stream.value
            XCTAssertEqual(streamed, 28, "the stream was cut")
            try await running.value
            // The owned HTTPClient is gone: its connections are closed.
            let closed = await waitUntil(timeout: 5) { server.log.withLock { $0.openConnections } == 0 }
            XCTAssertTrue(closed, "connections left open: \(server.log.withLock { $0.openConnections })")
        }
        XCTAssertEqual(AsyncHTTPClientClient.unclosedClientCount, unclosed)
        await server.shutdown()
    }

    func testTheGracePeriodBoundsTheWait() async throws {
        let faults = FaultRoutes()
        let server = try await TestServer.start(faults.handler)
        let client = AsyncHTTPClientClient(baseURL: server.baseURL)
        let group = ServiceGroup(services: [ClientService(client, gracePeriod: .milliseconds(300))], logger: logger)
        let running = Task { try await group.run() }
        let stuck = Task { try await client.request(.get("hold?seconds=30", as: Attempt.self)) }
        _ = await waitUntil(timeout: 5) { faults.mostHeld >= 1 }
        let start = ContinuousClock.now
        await group.triggerGracefulShutdown()
        try await running.value
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
        do {
            _ = try await stuck.value
            XCTFail("a call past the grace period finished")
        } catch EndpointKitError.clientInvalidated {
        } catch {
            XCTFail("a call cut by shutdown should fail with clientInvalidated, not \(error)")
        }
        await server.shutdown()
    }
}
