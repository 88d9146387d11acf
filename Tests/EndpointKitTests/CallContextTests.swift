import Foundation
import XCTest

@testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Adapters and retriers read the call they run for.
final class CallContextTests: ServerTestCase {
    override var routes: TestServer.Handler { FaultRoutes().handler }

    /// Records the context each time it adapts a request or is asked about a retry.
    struct Recorder: RequestAdapter, RequestRetrier {
        let base: BaseRequestAdapter
        let seen = Guarded<[(String, CallContext?)]>([])

        func adapt(_ request: URLRequest) async throws -> URLRequest {
            seen.withLock { $0.append(("adapt", CallContext.current)) }
            return try base.adapt(request)
        }

        func retry(_ request: URLRequest, response: HTTPURLResponse?, error: any Error, attempt: Int) async throws -> RetryDecision {
            seen.withLock { $0.append(("retry \(attempt)", CallContext.current)) }
            return .retry(after: 0.01)
        }
    }

    func testAdaptersAndRetriersSeeOneIdentityAndTheAttempt() async throws {
        let recorder = Recorder(base: BaseRequestAdapter(baseURL: server.baseURL))
        let client = URLSessionClient(requestAdapter: recorder)
        defer { client.invalidate() }
        _ = try await client.request(AttemptEndpoint(path: "flaky?fail=2"))
        let seen = recorder.seen.withLock { $0 }
        XCTAssertEqual(seen.map(\.0), ["adapt", "retry 1", "adapt", "retry 2", "adapt"])
        XCTAssertEqual(seen.map { $0.1?.attempt }, [1, 1, 2, 2, 3])
        XCTAssertEqual(Set(seen.map { $0.1?.id }).count, 1)
        _ = try await client.request(GetBook())
        XCTAssertNotEqual(recorder.seen.withLock { $0.last?.1?.id }, seen.first?.1?.id)
        XCTAssertNil(CallContext.current)
    }
}
