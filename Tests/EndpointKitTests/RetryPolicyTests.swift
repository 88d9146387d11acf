import Foundation
import XCTest

@testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class RetryPolicyTests: ServerTestCase {
    let faults = FaultRoutes()
    override var routes: TestServer.Handler { faults.handler }

    private func makeClient(_ policy: RetryPolicy = .fast, timeout: TimeInterval? = nil) -> URLSessionClient {
        URLSessionClient(baseURL: server.baseURL, responseObserver: observed.observer, retryPolicy: policy, timeout: timeout)
    }

    func testRetriesRetryableStatusesThenSucceeds() async throws {
        let client = makeClient()
        defer { client.invalidate() }
        for status in [408, 429, 500, 502, 503, 504] {
            let result = try await client.request(AttemptEndpoint(path: "flaky?key=s\(status)&fail=2&status=\(status)"))
            XCTAssertEqual(result.attempt, 3, "\(status)")
        }
    }

    func testEveryAttemptIsObservedAndTheResultOnce() async throws {
        let client = makeClient()
        defer { client.invalidate() }
        _ = try await client.request(AttemptEndpoint(path: "flaky?fail=2"))
        let calls = observed.calls
        XCTAssertEqual(calls.count, 3)
        for (index, call) in calls.prefix(2).enumerated() {
            guard case EndpointKitError.retrying(let attempt, let delay, let underlying)? = call.error else {
                return XCTFail("attempt \(index + 1): \(String(describing: call.error))")
            }
            XCTAssertEqual(attempt, index + 1)
            XCTAssertLessThanOrEqual(delay, RetryPolicy.fast.maximumDelay)
            XCTAssertEqual((underlying as? EndpointKitError)?.statusCode, 503)
            XCTAssertEqual(call.response?.statusCode, 503)
        }
        XCTAssertNil(calls[2].error)
        XCTAssertEqual(calls[2].response?.statusCode, 200)
    }

    /// Records the URL of each request it adapts.
    struct URLRecorder: RequestAdapter {
        let seen = Guarded<[String]>([])
        func adapt(_ request: URLRequest) async throws -> URLRequest {
            seen.withLock { $0.append(request.url?.absoluteString ?? "none") }
            return request
        }
    }

    func testEveryAttemptRunsEveryAdapterOnTheRequestAsBuilt() async throws {
        // The client's base URL is joined once a call; adapters before the base adapter still
        // see the relative URL, and those after it the full one, on every attempt.
        let base = BaseRequestAdapter(baseURL: server.baseURL)
        for (key, baseFirst) in [("full", true), ("relative", false)] {
            let recorder = URLRecorder()
            let adapters: [any RequestAdapter] = baseFirst ? [base, recorder] : [recorder, base]
            let client = URLSessionClient(requestAdapter: RequestAdapterChain(adapters), retryPolicy: .fast)
            defer { client.invalidate() }
            let path = "flaky?key=\(key)&fail=2"
            let result = try await client.request(AttemptEndpoint(path: path))
            XCTAssertEqual(result.attempt, 3)
            let expected = baseFirst ? server.baseURL.absoluteString + "/" + path : path
            XCTAssertEqual(recorder.seen.withLock { $0 }, Array(repeating: expected, count: 3), key)
            XCTAssertEqual(faults.count(key), 3)
        }
    }

    func testGivesUpAfterMaximumAttemptsWithTheLastError() async throws {
        let client = makeClient()
        defer { client.invalidate() }
        let result = await complete(AttemptEndpoint(path: "flaky?fail=10"), on: client)
        XCTAssertEqual((result.error as? EndpointKitError)?.statusCode, 503)
        XCTAssertEqual(faults.count("/flaky"), 3)
    }

    func testNonRetryableStatusesAndDecodingErrorsAreNotRetried() async throws {
        let client = makeClient()
        defer { client.invalidate() }
        _ = await complete(AttemptEndpoint(path: "flaky?key=nf&fail=1&status=404"), on: client)
        XCTAssertEqual(faults.count("nf"), 1)
        _ = await complete(GetBook(path: "malformed"), on: client)
        XCTAssertEqual(faults.count("/malformed"), 1)
    }

    func testPostIsRetriedOnlyWhenTheEndpointOptsIn() async throws {
        let client = makeClient()
        defer { client.invalidate() }
        _ = await complete(AttemptEndpoint(method: .post, path: "flaky?key=p1&fail=1"), on: client)
        XCTAssertEqual(faults.count("p1"), 1)
        let optedIn = AttemptEndpoint(method: .post, path: "flaky?key=p2&fail=1", retryPolicy: RetryPolicy.fast.retryingAllMethods())
        let result = try await client.request(optedIn)
        XCTAssertEqual(result.attempt, 2)
    }

    /// A request with an `Idempotency-Key` is one the server runs once, so the default policy
    /// retries it whatever its method.
    func testAPostWithAnIdempotencyKeyIsRetried() async throws {
        let client = makeClient()
        defer { client.invalidate() }
        let keyed = AttemptEndpoint(method: .post, path: "flaky?key=k1&fail=1", headers: ["Idempotency-Key": "order-7f3a"])
        let result = try await client.request(keyed)
        XCTAssertEqual(result.attempt, 2)
        XCTAssertEqual(faults.count("k1"), 2)
    }

    func testTransientTransportErrorsAreRetried() async throws {
        let client = makeClient()
        defer { client.invalidate() }
        let result = try await client.request(AttemptEndpoint(path: "reset-first?fail=2"))
        XCTAssertEqual(result.attempt, 3)
    }

    func testUploadBodiesAreSentWholeOnEveryAttempt() async throws {
        let payload = TransferRoutes.bytes(0..<100_000)
        let file = temporaryFile(contents: payload)
        defer { try? FileManager.default.removeItem(at: file) }
        var form = MultipartFormData()
        form.append(payload, name: "blob", fileName: "blob.bin")
        let bodies: [(String, UploadEndpointBody)] = [
            ("data", .data(payload)), ("file", .file(file)), ("stream", .stream { InputStream(data: payload) }),
            ("multipart", .multipart(form)),
        ]
        for (name, body) in bodies {
            let result = try await client.upload(AttemptUpload(path: "flaky?key=u\(name)&fail=2", body: body))
            XCTAssertEqual(result.attempt, 3, name)
            XCTAssertGreaterThanOrEqual(result.received, payload.count, name)
            let attempts = server.requests.filter { $0.uri.contains("key=u\(name)") }
            XCTAssertEqual(attempts.count, 3, name)
            XCTAssertEqual(Set(attempts.map(\.body.count)).count, 1, "\(name): every attempt sends the same body")
        }
    }

    func testRetryAfterInSecondsAndAsAnHTTPDateIsHonoured() async throws {
        let client = makeClient()
        defer { client.invalidate() }
        var started = Date()
        _ = try await client.request(AttemptEndpoint(path: "flaky?key=ra1&fail=1&retry_after=1"))
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.95)

        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        let date = formatter.string(from: Date().addingTimeInterval(2))
        started = Date()
        _ = try await client.request(AttemptEndpoint(path: "flaky?key=ra2&fail=1&retry_after=\(date.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"))
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.9)
        guard case EndpointKitError.retrying(_, let delay, _)? = observed.calls.last(where: { $0.error != nil })?.error else {
            return XCTFail("no retry observed")
        }
        XCTAssertEqual(delay, 1.5, accuracy: 1)
    }

    func testATooLongRetryAfterFailsAtOnce() async throws {
        let client = makeClient()
        defer { client.invalidate() }
        let started = Date()
        let result = await complete(AttemptEndpoint(path: "flaky?key=long&fail=1&retry_after=3600"), on: client)
        XCTAssertEqual((result.error as? EndpointKitError)?.statusCode, 503)
        // Waiting as told would take an hour; 5 s leaves a busy host room.
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func testCancellingDuringBackoffEndsTheCallAtOnce() async throws {
        let client = makeClient()
        defer { client.invalidate() }
        let faults = self.faults
        let task = Task { try await client.request(AttemptEndpoint(path: "flaky?key=bo&fail=1&retry_after=30")) }
        _ = await waitUntil(timeout: 5) { faults.count("bo") == 1 }
        try await Task.sleep(nanoseconds: 100_000_000)
        let started = Date()
        task.cancel()
        let result = await task.result
        // The backoff lasts 30 s; 5 s leaves a busy host room.
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertTrue(result.error is CancellationError, "\(result)")
        XCTAssertEqual(faults.count("bo"), 1)
        XCTAssertTrue(observed.calls.last?.error is CancellationError)
    }

    func testBackoffGrowsAndIsCapped() {
        let policy = RetryPolicy(initialDelay: 0.5, multiplier: 2, maximumDelay: 3)
        XCTAssertEqual((1...5).map(policy.backoff(forAttempt:)), [0.5, 1, 2, 3, 3])
    }

    func testRetryAfterParsing() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        XCTAssertEqual(RetryAfter.seconds("120"), 120)
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:47 GMT", now: now), 10)
        XCTAssertEqual(RetryAfter.seconds("Sunday, 06-Nov-94 08:49:57 GMT", now: now), 20)
        XCTAssertEqual(RetryAfter.seconds("Sun Nov  6 08:50:07 1994", now: now), 30)
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:00:00 GMT", now: now), 0)
        XCTAssertNil(RetryAfter.seconds("soon"))
        XCTAssertNil(RetryAfter.seconds("-5"))
    }
}
