import AsyncHTTPClient
import EndpointKit
import InMemoryLogging
import Logging
import NIOPosix
import XCTest

@testable import EndpointKitAsyncHTTPClient

/// Which event loop AsyncHTTPClient runs a call's events on, read from its trace lines: the
/// loop it picked for the call's task (`ahc-eventloop`) and the loop of the connection that
/// carried it (`ahc-el`), each by its thread's name. When they differ, every event of the call is handed from one loop's
/// thread to the other's.
final class EventLoopAffinityTests: XCTestCase {
    /// Calls one after another, over a group of two loops: every call's task is on its
    /// connection's loop, not every other one (AsyncHTTPClient's own choice, the group's next
    /// loop, alternates while the pool keeps handing out the one connection).
    func testCallsOneAfterAnotherRunOnTheirConnectionsLoop() async throws {
        let (taskLoops, connectionLoops) = try await loops(calls: 20, sideBySide: 1)
        XCTAssertEqual(taskLoops.count, 20, "\(taskLoops)")
        XCTAssertEqual(Set(connectionLoops.values).count, 1, "one connection, on one loop: \(connectionLoops)")
        for (id, loop) in taskLoops {
            XCTAssertEqual(connectionLoops[id], loop, "request \(id)")
        }
    }

    /// Calls side by side still use both loops of the group for their connections.
    func testCallsSideBySideUseEveryLoop() async throws {
        let (taskLoops, connectionLoops) = try await loops(calls: 40, sideBySide: 8)
        XCTAssertEqual(taskLoops.count, 40, "\(taskLoops)")
        XCTAssertEqual(Set(connectionLoops.values).count, 2, "\(connectionLoops)")
    }

    /// Makes `calls` GETs, `sideBySide` at a time, through a client over a two-loop group; for
    /// each request ID, the loop of its task and the loop of its connection.
    private func loops(calls: Int, sideBySide: Int) async throws -> (task: [String: String], connection: [String: String]) {
        let server = try await TestServer.start(Routes.standard)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let httpClient = HTTPClient(eventLoopGroup: group)
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "calls", factory: { _ in handler })
        logger.logLevel = .trace
        let client = AsyncHTTPClientClient(baseURL: server.baseURL, httpClient: httpClient, logger: logger)
        do {
            for _ in 0..<(calls / sideBySide) {
                try await withThrowingTaskGroup(of: Void.self) { calls in
                    for _ in 0..<sideBySide {
                        calls.addTask { _ = try await client.request(GetBook()) }
                    }
                    try await calls.waitForAll()
                }
            }
        } catch {
            XCTFail("\(error)")
        }
        try await client.shutdown()
        try await httpClient.shutdown()
        try await group.shutdownGracefully()
        await server.shutdown()
        var task: [String: String] = [:]
        var connection: [String: String] = [:]
        for entry in handler.entries {
            guard let id = entry.metadata["ahc-request-id"]?.description else { continue }
            if let loop = entry.metadata["ahc-eventloop"] { task[id] = threadName(of: loop) }
            if let loop = entry.metadata["ahc-el"] { connection[id] = threadName(of: loop) }
        }
        return (task, connection)
    }

    /// The name of a loop's thread in its description (the two lines describe a loop with
    /// different detail).
    private func threadName(of loop: Logger.MetadataValue) -> String {
        let text = loop.description
        guard let start = text.range(of: "name = ") else { return text }
        return String(text[start.upperBound...].prefix { $0 != ")" })
    }
}
