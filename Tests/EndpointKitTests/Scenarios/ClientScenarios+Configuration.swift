@_spi(Locking) import EndpointKit
import XCTest

/// What ``ClientConfiguration`` sets up, the same way for every client.
extension ClientScenarios {
    var configurationScenarios: [(String, @Sendable (TestServer, FaultRoutes) async throws -> Void)] {
        [
            ("adapters after the base URL, in order", adaptersInOrder), ("a cookie jar of the client's own", cookieJar),
            ("completion calls adapted before they return", completionCallsAdaptedInOrder),
            ("limits of infinity mean none", infiniteLimits),
        ]
    }

    /// A time limit of `.infinity` (or one too long to count) is no limit, not a crash: the
    /// client's timeout, a call deadline, a retry's wait, a circuit's open time.
    func infiniteLimits(_ server: TestServer, _: FaultRoutes) async throws {
        let overload = OverloadPolicy(circuitBreaker: CircuitBreaker(window: .infinity, consecutiveFailures: 1, openDuration: .infinity))
        try await with(server, Options(timeout: .infinity, overload: overload)) { client in
            let book = try await client.request(GetBook())
            XCTAssertEqual(book, Routes.books[0], name)
            let again = try await CallDeadline.within(.infinity) { try await client.request(GetBook()) }
            XCTAssertEqual(again, Routes.books[0], name)
            var lines = 0
            for try await _ in try await client.stream(PathEndpoint(path: "stream")).lines { lines += 1 }
            XCTAssertEqual(lines, 5, name)
            // One failure opens the circuit, for good.
            _ = try? await client.request(PathEndpoint(path: "status", query: [URLQueryItem(name: "code", value: "503")]))
            do {
                _ = try await client.request(GetBook())
                XCTFail("\(name): the open circuit let a call through")
            } catch EndpointKitError.circuitOpen(_, let until) {
                XCTAssertGreaterThan(until.timeIntervalSinceNow, 100 * 365 * 86_400, name)
            }
        }
    }

    /// Appends its mark to `X-Order`, and records whether the URL it saw was absolute.
    struct Mark: RequestAdapter {
        let mark: String
        func adapt(_ request: URLRequest) async throws -> URLRequest {
            var request = request
            let order = request.value(forHTTPHeaderField: "X-Order").map { $0 + "," } ?? ""
            request.setValue(order + mark, forHTTPHeaderField: "X-Order")
            request.setValue(request.url?.scheme ?? "relative", forHTTPHeaderField: "X-Scheme-\(mark)")
            return request
        }
    }

    func adaptersInOrder(_ server: TestServer, _: FaultRoutes) async throws {
        try await with(server, Options(adapters: [Mark(mark: "auth"), Mark(mark: "sign")])) { client in
            let echo = try await client.request(.get("echo", as: Echo.self))
            XCTAssertEqual(echo.path, "/echo", name)
            XCTAssertEqual(echo.headers["x-order"], "auth,sign", name)
            XCTAssertEqual(echo.headers["x-scheme-sign"], "http", name)
        }
    }

    /// Numbers each request it adapts, in the order it sees them.
    struct Numbering: RequestAdapter {
        let seen = Locked(0)
        func adapt(_ request: URLRequest) throws -> URLRequest {
            var request = request
            request.setValue(String(seen.withLock { $0 += 1; return $0 }), forHTTPHeaderField: "X-Number")
            return request
        }
    }

    /// A completion-handler call is built and adapted on the calling thread before the method
    /// returns, so calls made one after another from one thread are adapted in that order.
    func completionCallsAdaptedInOrder(_ server: TestServer, _: FaultRoutes) async throws {
        let numbering = Numbering()
        try await with(server, Options(adapters: [numbering])) { client in
            let calls = 50
            let echoes = Locked([String: Int]())
            let done = DispatchGroup()
            var adaptedBeforeReturning = 0
            for call in 1...calls {
                done.enter()
                client.request(.get("echo", query: [URLQueryItem(name: "call", value: String(call))], as: Echo.self)) { result in
                    if case .success(let echo) = result, let number = echo.headers["x-number"] {
                        echoes.withLock { $0[number] = call }
                    }
                    done.leave()
                }
                if numbering.seen.withLock({ $0 }) == call { adaptedBeforeReturning += 1 }
            }
            await withCheckedContinuation { continuation in done.notify(queue: .global()) { continuation.resume() } }
            XCTAssertEqual(adaptedBeforeReturning, calls, "\(name): adapted before the method returned")
            let numbered = echoes.withLock { $0 }
            XCTAssertEqual(numbered.count, calls, name)
            XCTAssertTrue(numbered.allSatisfy { Int($0.key) == $0.value }, "\(name): adapted out of order: \(numbered)")
        }
    }

    /// Cookies kept for one client alone: set by a redirect (two `Set-Cookie` fields with
    /// dates, which Foundation joins with commas), sent back on the redirect and later calls,
    /// never seen by another client.
    func cookieJar(_ server: TestServer, _: FaultRoutes) async throws {
        let jar = CookieJar()
        try await with(server, Options(timeout: 10, cookieStorage: jar)) { client in
            let query = [URLQueryItem(name: "session", value: "j1"), URLQueryItem(name: "theme", value: "light")]
            let redirected = try await client.request(.get("cookies/set", query: query, as: Echo.self))
            let later = try await client.request(.get("echo", as: Echo.self))
            for echo in [redirected, later] {
                let sent = (echo.headers["cookie"] ?? "").components(separatedBy: "; ").sorted()
                XCTAssertEqual(sent, ["session=j1", "theme=light"], name)
            }
            XCTAssertEqual(jar.cookiesToSend(to: server.baseURL).map(\.name).sorted(), ["session", "theme"], name)
        }
        try await with(server, Options(cookieStorage: CookieJar())) { other in
            let echo = try await other.request(.get("echo", as: Echo.self))
            XCTAssertNil(echo.headers["cookie"], name)
        }
        let shared = (HTTPCookieStorage.shared.cookies(for: server.baseURL) ?? []).map(\.value)
        XCTAssertFalse(shared.contains("j1"), "\(name): the shared storage was used")
    }
}
