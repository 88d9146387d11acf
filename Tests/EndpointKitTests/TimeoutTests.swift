import Foundation
import XCTest

@testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class TimeoutTests: ServerTestCase {
    let faults = FaultRoutes()
    override var routes: TestServer.Handler { faults.handler }

    private func expectTimeout<T: Endpoint>(
        _ endpoint: T, client: URLSessionClient, limit: TimeInterval, file: StaticString = #filePath, line: UInt = #line
    ) async {
        let started = Date()
        let result = await complete(endpoint, on: client)
        let elapsed = Date().timeIntervalSince(started)
        guard case EndpointKitError.timedOut(let url, let reported)? = result.error else {
            return XCTFail("unexpected \(result)", file: file, line: line)
        }
        XCTAssertEqual(reported, limit, file: file, line: line)
        XCTAssertNotNil(url, file: file, line: line)
        XCTAssertGreaterThanOrEqual(elapsed, limit * 0.9, file: file, line: line)
        XCTAssertLessThan(elapsed, limit + 2, file: file, line: line)
        XCTAssertTrue("\(result.error!)".contains("timed out after"), file: file, line: line)
    }

    func testAServerThatNeverAnswersTimesOutAtTheClientLimit() async throws {
        let client = URLSessionClient(baseURL: server.baseURL, timeout: 0.5)
        defer { client.invalidate() }
        await expectTimeout(PathEndpoint(path: "stall"), client: client, limit: 0.5)
        let disconnected = await server.waitForDisconnect(of: "/stall")
        XCTAssertTrue(disconnected)
    }

    func testABodyThatStallsTimesOut() async throws {
        let client = URLSessionClient(baseURL: server.baseURL, timeout: 0.5)
        defer { client.invalidate() }
        await expectTimeout(PathEndpoint(path: "stall-body"), client: client, limit: 0.5)
    }

    func testAnEndpointTimeoutOverridesTheClients() async throws {
        let client = URLSessionClient(baseURL: server.baseURL, timeout: 30)
        defer { client.invalidate() }
        await expectTimeout(AttemptEndpoint(path: "stall", timeout: 0.3), client: client, limit: 0.3)
    }

    func testATimedOutAttemptIsRetried() async throws {
        let client = URLSessionClient(baseURL: server.baseURL, responseObserver: observed.observer, retryPolicy: .fast, timeout: 0.3)
        defer { client.invalidate() }
        _ = await complete(PathEndpoint(path: "stall"), on: client)
        XCTAssertEqual(faults.count("/stall"), 3)
        XCTAssertEqual(observed.calls.count, 3)
    }
}
