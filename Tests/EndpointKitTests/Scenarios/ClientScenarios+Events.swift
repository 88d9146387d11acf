import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a ``CallMonitor`` sees of each kind of call, the same with every client.
extension ClientScenarios {
    func callEvents(_ server: TestServer, _: FaultRoutes) async throws {
        let log = EventLog()
        let payload = Data(repeating: 7, count: 100_000)
        try await with(server, Options(monitors: [log], retryPolicy: .fast, timeout: 2)) { client in
            _ = try await client.request(GetBook())
            _ = try await client.request(AttemptEndpoint(path: "flaky?fail=2"))
            _ = try await client.request(EchoEndpoint(path: "redirect", query: [.init(name: "status", value: "302")]))
            _ = try? await client.request(PathEndpoint(path: "status", query: [.init(name: "code", value: "404")]))
            let _: Book = try await withCheckedThrowingContinuation { continuation in
                client.request(GetBook()) { continuation.resume(with: $0) }
            }
            _ = try await client.upload(Upload(body: .data(payload)))
            let file = try await client.download(Download(count: 300_000))
            try? FileManager.default.removeItem(at: file)
            for try await _ in try await client.stream(PathEndpoint(path: "stream")) {}
            _ = try? await client.request(AttemptEndpoint(path: "stall-body", retryPolicy: RetryPolicy.none))
            let slow = Task { try await client.request(SlowEndpoint(seconds: 10)) }
            _ = await waitUntil(timeout: 5) { server.requests.contains { $0.path == "/slow" } }
            slow.cancel()
            _ = await slow.result
            _ = try? await client.request(Unbuildable())
        }
        let expected: [[String]] = [
            ["start GET /books/1", "attempt 1 GET /books/1", "attempt 1 ended 200 sent 0 received 57", "end 200"],
            [
                "start GET /flaky", "attempt 1 GET /flaky", "attempt 1 ended refused 503 sent 0 received 4", "retry 1 after a delay",
                "attempt 2 GET /flaky", "attempt 2 ended refused 503 sent 0 received 4", "retry 2 after a delay",
                "attempt 3 GET /flaky", "attempt 3 ended 200 sent 0 received 26", "end 200",
            ],
            ["start GET /redirect", "attempt 1 GET /redirect", "redirect 302 /echo", "attempt 1 ended 200 sent 0 received *", "end 200"],
            ["start GET /status", "attempt 1 GET /status", "attempt 1 ended refused 404 sent 0 received 0", "end refused 404"],
            ["start GET /books/1", "attempt 1 GET /books/1", "attempt 1 ended 200 sent 0 received 57", "end 200"],
            ["start POST /upload", "attempt 1 POST /upload", "attempt 1 ended 200 sent 100000 received *", "end 200"],
            ["start GET /bytes", "attempt 1 GET /bytes", "attempt 1 ended 200 sent 0 received 300000", "end 200"],
            ["start GET /stream", "attempt 1 GET /stream", "attempt 1 ended 200 sent 0 body streamed", "end 200 body streamed"],
            ["start GET /stall-body", "attempt 1 GET /stall-body", "attempt 1 ended timed out sent 0 received 0", "end timed out"],
            ["start GET /slow", "attempt 1 GET /slow", "attempt 1 ended cancelled sent 0 received 0", "end cancelled"],
            ["start nil", "end error EndpointKitError"],
        ]
        let calls = log.calls
        XCTAssertEqual(calls.count, expected.count, "\(name): \(calls)")
        for (seen, wanted) in zip(calls, expected) {
            // `*`: a count that depends on the server's echo, not on the client.
            let matches = seen.count == wanted.count
                && zip(seen, wanted).allSatisfy { $1.hasSuffix("*") ? $0.hasPrefix($1.dropLast()) : $0 == $1 }
            XCTAssertTrue(matches, "\(name):\n  seen     \(seen)\n  expected \(wanted)")
        }
    }
}

/// An endpoint whose request cannot be built.
struct Unbuildable: Endpoint {
    typealias Content = Void
    struct Refused: Error {}
    func makeRequest() throws -> URLRequest { throw Refused() }
}
