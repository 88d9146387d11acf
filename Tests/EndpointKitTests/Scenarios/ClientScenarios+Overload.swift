import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client under load never takes its server down with it, nor stalls behind its own
/// cancelled calls.
extension ClientScenarios {
    var overloadScenarios: [(String, @Sendable (TestServer, FaultRoutes) async throws -> Void)] {
        [
            ("burst against a server with few threads", burstAgainstFewThreads),
            ("retry budget", retryBudget), ("circuit breaker", circuitBreaker), ("circuit probe that hangs", circuitProbeThatHangs),
            ("a retry into an open circuit", retryIntoOpenCircuit),
            ("concurrency limit", concurrencyLimit), ("a queue behind a host that does not answer", queueBehindAStalledHost),
            ("deadline", deadline), ("hedging", hedging), ("calls waiting when the client stops", callsWaitingWhenTheClientStops),
        ]
    }

    /// 300 GETs at once, then 300 more with 2 in 3 cancelled at random in their first 50 ms,
    /// against a server that takes new connections with 16 threads, each of which waits 2 s for
    /// a connection's first request (gunicorn's threaded worker waits 5 s). A client that opens
    /// a connection per queued call leaves many of them idle; each idle one holds a thread for
    /// those 2 s, and the calls behind them wait (AsyncHTTPClient with 1,024 connections per
    /// host took 5–60 s for such a burst against gunicorn). Every call that was not cancelled
    /// must succeed, and the call after each burst must not wait for a thread.
    func burstAgainstFewThreads(_: TestServer, _ faults: FaultRoutes) async throws {
        let gate = AcceptGate(workers: 16, firstDataTimeout: 2)
        let server = try await TestServer.start(gate: gate, faults.handler)
        do {
            try await with(server) { client in
                for cancelling in [false, true] {
                    let outcomes = await withTaskGroup(of: String.self) { group in
                        for index in 0..<300 {
                            let call = Task { try await client.request(AttemptEndpoint(path: "/flaky?key=burst")) }
                            let cancels = cancelling && index % 3 != 0
                            group.addTask {
                                if cancels {
                                    try? await Task.sleep(nanoseconds: UInt64.random(in: 0...50_000_000))
                                    call.cancel()
                                }
                                switch await call.result {
                                case .success: return "ok"
                                case .failure(let error): return error is CancellationError ? "cancelled" : "\(error)"
                                }
                            }
                        }
                        return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
                    }
                    let failures = outcomes.filter { $0.key != "ok" && $0.key != "cancelled" }
                    XCTAssertEqual(failures, [:], "\(name), burst\(cancelling ? " with cancellations" : "")")
                    XCTAssertEqual(outcomes["ok", default: 0] + outcomes["cancelled", default: 0], 300, name)
                    // One more call: answered while no thread is held by an idle connection (the
                    // wait for one is the gate's 2 s; an answer takes a few ms).
                    let start = Date()
                    _ = try await client.request(AttemptEndpoint(path: "/flaky?key=after"))
                    let waited = Date().timeIntervalSince(start)
                    XCTAssertLessThan(
                        waited, 1.5,
                        "\(name): the call after a burst\(cancelling ? " with cancellations" : "") waited \(waited) s; "
                            + "threads held by idle connections: \(gate.counts.withLock { $0.idleTimeouts })")
                }
            }
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    /// Outcomes of `count` calls made at once, by error kind ("ok" for success).
    private func outcomes<E: Endpoint>(
        of count: Int, _ client: any Client, _ endpoint: @escaping @Sendable (Int) -> E
    ) async -> [String: Int] where E.Content: Sendable {
        await withTaskGroup(of: String.self) { group in
            for index in 0..<count {
                group.addTask {
                    do {
                        _ = try await client.request(endpoint(index))
                        return "ok"
                    } catch {
                        return Self.kind(of: error)
                    }
                }
            }
            return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
    }

    static func kind(of error: any Error) -> String {
        switch error {
        case is CancellationError: "cancelled"
        case EndpointKitError.unacceptableStatus(let failure): "\(failure.statusCode)"
        case EndpointKitError.circuitOpen: "circuit open"
        case EndpointKitError.tooManyCalls: "too many calls"
        case EndpointKitError.timedOut: "timed out"
        default: "\(error)"
        }
    }

    /// 100 calls at once to an endpoint that always answers 503, with 3 attempts each: with no
    /// budget 300 requests reach the server; with a budget of 20 % (no floor), at most 120, and
    /// each refused retry is an event.
    func retryBudget(_ server: TestServer, _ faults: FaultRoutes) async throws {
        let always503 = { @Sendable (_: Int) in AttemptEndpoint(path: "/flaky?key=down&fail=100000", retryPolicy: .fast) }
        try await with(server, Options(overload: .none)) { client in
            let outcomes = await self.outcomes(of: 100, client, always503)
            XCTAssertEqual(outcomes, ["503": 100], name)
        }
        XCTAssertEqual(faults.count("down"), 300, "\(name): without a budget every call is tried 3 times")
        let log = EventLog()
        let budget = OverloadPolicy(retryBudget: RetryBudget(ratio: 0.2, minimumPerSecond: 0))
        try await with(server, Options(monitors: [log], overload: budget)) { client in
            let outcomes = await self.outcomes(of: 100, client, always503)
            XCTAssertEqual(outcomes, ["503": 100], name)
        }
        let sent = faults.count("down") - 300
        let retries = log.lines.filter { $0.hasPrefix("retry ") }.count
        let refused = log.lines.filter { $0 == "overload retry_refused" }.count
        XCTAssertEqual(sent, 100 + retries, name)
        XCTAssertLessThanOrEqual(retries, 20, "\(name): retries beyond 20 % of 100 calls")
        XCTAssertGreaterThanOrEqual(refused, 80, "\(name): every call past the budget is told why")
    }

    /// A host that fails: after 5 failed calls of 10 (ratio 0.5, at least 5 calls) the circuit
    /// opens and the next calls fail at once, unsent; after the open time one probe goes, the
    /// host has recovered, the circuit closes and calls go again. 4xx answers never open it.
    func circuitBreaker(_ server: TestServer, _ faults: FaultRoutes) async throws {
        let log = EventLog()
        let breaker = CircuitBreaker(failureRatio: 0.5, minimumCalls: 5, window: 10, openDuration: 0.5)
        try await with(server, Options(monitors: [log], overload: OverloadPolicy(circuitBreaker: breaker))) { client in
            for _ in 0..<20 {
                _ = try? await client.request(AttemptEndpoint(path: "/flaky?key=missing&fail=100&status=404"))
            }
        }
        XCTAssertEqual(faults.count("missing"), 20, name)
        XCTAssertFalse(log.lines.contains("overload circuit_opened"), "\(name): 4xx opened the circuit")
        try await with(server, Options(monitors: [log], overload: OverloadPolicy(circuitBreaker: breaker))) { client in
            var kinds: [String] = []
            for _ in 0..<12 {
                do {
                    _ = try await client.request(AttemptEndpoint(path: "/flaky?key=cb&fail=5"))
                    kinds.append("ok")
                } catch {
                    kinds.append(Self.kind(of: error))
                    if case EndpointKitError.circuitOpen(let host, let until) = error {
                        XCTAssertEqual(host, "127.0.0.1:\(server.port)", name)
                        XCTAssertGreaterThan(until, Date(), name)
                        XCTAssertTrue("\(error)".contains("127.0.0.1"), name)
                    }
                }
            }
            XCTAssertEqual(kinds, Array(repeating: "503", count: 5) + Array(repeating: "circuit open", count: 7), name)
            XCTAssertEqual(faults.count("cb"), 5, "\(name): an open circuit sends nothing")
            try await Task.sleep(nanoseconds: 600_000_000)
            let probe = try await client.request(AttemptEndpoint(path: "/flaky?key=cb&fail=5"))
            XCTAssertEqual(probe.attempt, 6, name)
            _ = try await client.request(AttemptEndpoint(path: "/flaky?key=cb&fail=5"))
            XCTAssertEqual(faults.count("cb"), 7, name)
        }
        // Streams go through the same circuit: 5 failed streams open it, the 6th is refused.
        try await with(server, Options(overload: OverloadPolicy(circuitBreaker: breaker))) { client in
            var kinds: [String] = []
            for _ in 0..<6 {
                do {
                    _ = try await client.stream(PathEndpoint(path: "flaky", query: [.init(name: "key", value: "streams"), .init(name: "fail", value: "100")]))
                    kinds.append("ok")
                } catch {
                    kinds.append(Self.kind(of: error))
                }
            }
            XCTAssertEqual(kinds, Array(repeating: "503", count: 5) + ["circuit open"], name)
            XCTAssertEqual(faults.count("streams"), 5, name)
        }
        let decisions = log.lines.filter { $0.hasPrefix("overload") }
        XCTAssertEqual(
            decisions,
            ["overload circuit_opened"] + Array(repeating: "overload circuit_rejected", count: 7)
                + ["overload circuit_probe", "overload circuit_closed"], name)
    }

    /// A call whose failure opens its host's circuit is not retried into it: the call ends at
    /// once with the server's own answer (the 503 that opened the circuit), not with
    /// `circuitOpen` after the retry's 2 s wait, and the monitor is told the circuit refused it.
    /// A retry that was waiting when the circuit opened ends the same way. Once the circuit lets
    /// probes through, retries go again.
    func retryIntoOpenCircuit(_ server: TestServer, _ faults: FaultRoutes) async throws {
        let log = EventLog()
        let breaker = CircuitBreaker(failureRatio: 0.5, minimumCalls: 1, window: 10, openDuration: 5)
        let slowRetries = RetryPolicy(initialDelay: 2, jitter: 0)
        try await with(server, Options(monitors: [log], retryPolicy: slowRetries, overload: OverloadPolicy(circuitBreaker: breaker))) {
            client in
            let start = Date()
            do {
                _ = try await client.request(AttemptEndpoint(path: "/flaky?key=opening&fail=100"))
                XCTFail("\(name): answered")
            } catch {
                XCTAssertEqual(Self.kind(of: error), "503", "\(name): \(error)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 1.5, "\(name): waited for a retry the circuit refuses")
            XCTAssertEqual(faults.count("opening"), 1, name)
            XCTAssertEqual(
                log.lines.filter { $0.hasPrefix("overload") }, ["overload circuit_opened", "overload circuit_rejected"], name)
            XCTAssertFalse(log.lines.contains { $0.hasPrefix("retry ") }, "\(name): \(log.lines)")
        }
        // A retry begun while the circuit was closed, whose wait ends with it open (another
        // call's failure opened it), is not sent: the call ends with its own 503, not `circuitOpen`.
        let onSecondFailure = CircuitBreaker(minimumCalls: 100, window: 10, consecutiveFailures: 2, openDuration: 5)
        let waits = RetryPolicy(initialDelay: 0.4, jitter: 0)
        try await with(server, Options(retryPolicy: waits, overload: OverloadPolicy(circuitBreaker: onSecondFailure))) { client in
            let waiting = Task { try await client.request(AttemptEndpoint(path: "/flaky?key=waiting&fail=100")) }
            try await Task.sleep(nanoseconds: 150_000_000)
            _ = try? await client.request(AttemptEndpoint(path: "/flaky?key=opener&fail=100"))
            await expectTheServersRefusal(of: waiting)
            XCTAssertEqual(faults.count("waiting"), 1, name)
        }
        // A retry whose wait ends after the circuit lets a probe through is sent, as the probe.
        let shortOpen = CircuitBreaker(failureRatio: 0.5, minimumCalls: 1, window: 10, openDuration: 0.1)
        let retries = RetryPolicy(maximumAttempts: 2, initialDelay: 0.3, jitter: 0)
        try await with(server, Options(retryPolicy: retries, overload: OverloadPolicy(circuitBreaker: shortOpen))) { client in
            let answer = try await client.request(AttemptEndpoint(path: "/flaky?key=probed&fail=1"))
            XCTAssertEqual(answer.attempt, 2, name)
            XCTAssertEqual(faults.count("probed"), 2, name)
        }
    }

    /// Waits for `call`, which must end with the server's own 503, not an error of the guard
    /// that refused its retry.
    private func expectTheServersRefusal<Content>(of call: Task<Content, any Error>) async {
        switch await call.result {
        case .success: XCTFail("\(name): answered")
        case .failure(let error): XCTAssertEqual(Self.kind(of: error), "503", "\(name): \(error)")
        }
    }

    /// A probe that never answers (no time limit, a host that hangs) holds a half-open circuit
    /// for the breaker's window only: calls meanwhile fail at once, then the next call probes in
    /// its place and closes the circuit.
    func circuitProbeThatHangs(_ server: TestServer, _ faults: FaultRoutes) async throws {
        let breaker = CircuitBreaker(minimumCalls: 100, window: 0.5, consecutiveFailures: 1, openDuration: 0.2)
        try await with(server, Options(overload: OverloadPolicy(circuitBreaker: breaker))) { client in
            _ = try? await client.request(AttemptEndpoint(path: "/flaky?key=hangs&fail=1"))
            try await Task.sleep(nanoseconds: 300_000_000)
            let stuck = Task { try await client.request(AttemptEndpoint(path: "/hold?key=stuck&seconds=30", timeout: .infinity)) }
            defer { stuck.cancel() }
            try await Task.sleep(nanoseconds: 100_000_000)
            do {
                _ = try await client.request(AttemptEndpoint(path: "/flaky?key=hangs&fail=1"))
                XCTFail("\(name): a second probe went through")
            } catch EndpointKitError.circuitOpen {}
            try await Task.sleep(nanoseconds: 500_000_000)
            let probe = try await client.request(AttemptEndpoint(path: "/flaky?key=hangs&fail=1"))
            XCTAssertEqual(probe.attempt, 2, name)
            _ = try await client.request(AttemptEndpoint(path: "/flaky?key=hangs&fail=1"))
            XCTAssertEqual(faults.count("stuck"), 1, name)
        }
    }

    /// At most 2 calls in flight and 3 waiting: of 10 slow calls at once, 5 fail at once with
    /// `tooManyCalls`, the rest succeed, and the server never has more than 2 at a time. A
    /// waiting call that is cancelled leaves the queue at once; one with a time limit leaves it
    /// at that limit, with `timedOut`. A retry refused for want of a place ends the call with
    /// its last answer.
    func concurrencyLimit(_ server: TestServer, _ faults: FaultRoutes) async throws {
        let log = EventLog()
        let limit = OverloadPolicy(concurrencyLimit: ConcurrencyLimit(maximumInFlight: 2, maximumQueued: 3))
        try await with(server, Options(monitors: [log], overload: limit)) { client in
            let outcomes = await self.outcomes(of: 10, client) { index in
                AttemptEndpoint(path: "/hold?key=bulkhead\(index)&seconds=0.2")
            }
            XCTAssertEqual(outcomes, ["ok": 5, "too many calls": 5], name)
            XCTAssertEqual(faults.mostHeld, 2, "\(name): the server had more than 2 calls at a time")
            XCTAssertEqual(log.lines.filter { $0 == "overload queue_full" }.count, 5, name)
            XCTAssertEqual(log.lines.filter { $0 == "overload queued" }.count, 3, name)
            // Two calls hold the host (until cancelled); a third waits and is cancelled: it ends
            // at once.
            let holders = (0..<2).map { index in
                Task { try await client.request(AttemptEndpoint(path: "/hold?key=holder\(index)&seconds=30")) }
            }
            // The holders are seen to hold, rather than given a fixed time, which a busy host
            // outlasts. (A waiter shows in the log only when it leaves the queue.)
            let holding = await waitUntil(timeout: 10) { faults.count("holder0") + faults.count("holder1") == 2 }
            XCTAssertTrue(holding, "\(name): the holders did not reach the server")
            let waiter = Task { try await client.request(AttemptEndpoint(path: "/hold?key=waiter&seconds=0")) }
            try await Task.sleep(nanoseconds: 100_000_000)
            let start = Date()
            waiter.cancel()
            let result = await waiter.result
            // The holders hold for 30 s: 5 s tells a waiter that left at once from one that did not, on a busy host too.
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, "\(name): a cancelled waiter stayed in the queue")
            if case .success = result { XCTFail("\(name): the cancelled waiter was sent") }
            XCTAssertEqual(faults.count("waiter"), 0, name)
            // A waiter with a time limit waits no longer than that, unsent.
            let late = Date()
            do {
                _ = try await client.request(AttemptEndpoint(path: "/hold?key=late&seconds=0", timeout: 0.5))
                XCTFail("\(name): a call past the limit was sent")
            } catch EndpointKitError.timedOut(let url, let limit) {
                XCTAssertEqual(url?.path, "/hold", name)
                XCTAssertEqual(limit, 0.5, name)
            }
            XCTAssertLessThan(Date().timeIntervalSince(late), 2, "\(name): a waiter outlived its time limit")
            XCTAssertEqual(faults.count("late"), 0, name)
            for holder in holders {
                holder.cancel()
                let ended = await holder.result
                XCTAssertTrue(ended.error is CancellationError, "\(name): \(ended)")
            }
            // The places are all free again.
            let after = await self.outcomes(of: 5, client) { index in AttemptEndpoint(path: "/hold?key=after\(index)&seconds=0") }
            XCTAssertEqual(after, ["ok": 5], name)
        }
        // A retry that finds the host's place taken and no room to wait is not sent: the call
        // ends with its own 503, not `tooManyCalls`.
        let one = OverloadPolicy(concurrencyLimit: ConcurrencyLimit(maximumInFlight: 1, maximumQueued: 0))
        try await with(server, Options(retryPolicy: RetryPolicy(initialDelay: 1, jitter: 0), overload: one)) { client in
            let retrying = Task { try await client.request(AttemptEndpoint(path: "/flaky?key=crowded&fail=100")) }
            let answered = await waitUntil(timeout: 10) { faults.count("crowded") == 1 }
            XCTAssertTrue(answered, name)
            // Once the 503 is read and its place free, another call takes the place (seen to
            // reach the server) before the retry's wait of 1 s is over.
            try await Task.sleep(nanoseconds: 100_000_000)
            let holder = Task { try await client.request(AttemptEndpoint(path: "/hold?key=place&seconds=30")) }
            defer { holder.cancel() }
            let held = await waitUntil(timeout: 10) { faults.count("place") == 1 }
            XCTAssertTrue(held, name)
            await expectTheServersRefusal(of: retrying)
            XCTAssertEqual(faults.count("crowded"), 1, name)
        }
    }

    /// 2 calls in flight to a host that does not answer, 20 more waiting, all with 0.5 s: the
    /// waiting ones leave the queue at that limit, unsent, and so do those whose place freed as
    /// the first two timed out, with no time left to use it. Each says it timed out after the
    /// 0.5 s it had, not after what was left of it once it had waited. Before, the places freed
    /// at 0.5 s went to waiting calls with a fraction of a millisecond left, which were sent,
    /// timed out at once and freed their places for the next, each saying "timed out after 0 s".
    /// The calls start a little apart (more so on a busy host): one that started a millisecond
    /// or more after the first has that much left when their places free, and is sent (it may
    /// time out before it reaches the server).
    func queueBehindAStalledHost(_ server: TestServer, _ faults: FaultRoutes) async throws {
        let limit = OverloadPolicy(concurrencyLimit: ConcurrencyLimit(maximumInFlight: 2, maximumQueued: 20))
        let waits = QueueWaits()
        try await with(server, Options(monitors: [waits], overload: limit)) { client in
            let limits = await withTaskGroup(of: String.self) { group in
                for _ in 0..<22 {
                    group.addTask {
                        do {
                            _ = try await client.request(AttemptEndpoint(path: "/hold?key=stalled&seconds=30", timeout: 0.5))
                            return "answered"
                        } catch EndpointKitError.timedOut(_, let limit) {
                            return "timed out after \(limit) s"
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            XCTAssertEqual(limits, ["timed out after 0.5 s": 22], name)
            // Received: the first two, and at most the calls whose wait left them the millisecond
            // the gate asks for (sent with so little time, one may time out before it arrives).
            let withTimeLeft = waits.seconds.filter { $0 <= 0.499 }.count
            XCTAssertTrue(
                (2...2 + withTimeLeft).contains(faults.count("stalled")),
                "\(name): \(faults.count("stalled")) received, waits \(waits.seconds.sorted())")
        }
    }

    /// A call with a deadline: a retry whose wait (the server's `Retry-After`) would end past
    /// it is not begun, and an attempt does not run past it. The call's context tells how much
    /// time is left.
    func deadline(_ server: TestServer, _ faults: FaultRoutes) async throws {
        let log = EventLog()
        try await with(server, Options(monitors: [log], retryPolicy: .fast)) { client in
            let start = Date()
            do {
                _ = try await CallDeadline.within(0.5) {
                    try await client.request(AttemptEndpoint(path: "/flaky?key=late&fail=1&retry_after=2"))
                }
                XCTFail("\(name): retried past the deadline")
            } catch {
                XCTAssertEqual(Self.kind(of: error), "503", name)
            }
            // A retry would have waited 2 s first.
            XCTAssertLessThan(Date().timeIntervalSince(start), 1.5, name)
            XCTAssertEqual(faults.count("late"), 1, name)
            XCTAssertTrue(log.lines.contains("overload retry_past_deadline"), "\(name): \(log.lines)")
            // An attempt is cut at the deadline, whatever its own timeout.
            do {
                _ = try await CallDeadline.within(0.3) {
                    try await client.request(AttemptEndpoint(path: "/hold?key=stall&seconds=5", timeout: 30))
                }
                XCTFail("\(name): ran past the deadline")
            } catch {
                XCTAssertEqual(Self.kind(of: error), "timed out", name)
            }
            // A retry cut at the deadline: the error names the time the call had (0.8 s), not
            // what was left to its last attempt (about 0.3 s), which no setting says.
            do {
                _ = try await CallDeadline.within(0.8) {
                    try await client.request(AttemptEndpoint(path: "/hold?key=cut&seconds=5", timeout: 0.5))
                }
                XCTFail("\(name): ran past the deadline")
            } catch EndpointKitError.timedOut(_, let limit) {
                XCTAssertTrue((0.75...1.5).contains(limit), "\(name): timed out after \(limit) s")
            }
            XCTAssertEqual(faults.count("cut"), 2, name)
        }
        // The call's context tells how much time is left.
        let remaining = Guarded<TimeInterval?>(nil)
        let observer: ResponseObserver = { _, _, _, _ in remaining.withLock { $0 = CallContext.current?.remainingTime } }
        try await with(server, Options(observer: observer)) { client in
            _ = try await CallDeadline.within(5) {
                try await client.request(AttemptEndpoint(path: "/hold?key=quick&seconds=0"))
            }
            let left = remaining.withLock { $0 } ?? 0
            XCTAssertTrue(left > 4 && left <= 5, "\(name): \(left) s left")
            _ = try await client.request(AttemptEndpoint(path: "/hold?key=quick&seconds=0"))
            XCTAssertNil(remaining.withLock { $0 }, "\(name): a call without a deadline has no time left")
        }
    }

    /// With a hedge after 0.1 s, a call whose first answer would take 3 s is answered by the
    /// second attempt: 2 requests reach the server, the first one's connection is closed, and
    /// the hedge is an event.
    func hedging(_ server: TestServer, _ faults: FaultRoutes) async throws {
        let log = EventLog()
        let hedged = OverloadPolicy(hedging: HedgingPolicy(delay: .fixed(0.1)))
        try await with(server, Options(monitors: [log], overload: hedged)) { client in
            let start = Date()
            let answer = try await client.request(AttemptEndpoint(path: "/hold?key=tail&seconds=3&slow=1"))
            XCTAssertEqual(answer.attempt, 2, name)
            XCTAssertLessThan(Date().timeIntervalSince(start), 2, name)
            XCTAssertEqual(faults.count("tail"), 2, name)
            XCTAssertTrue(log.lines.contains("overload hedged"), name)
            let closed = await server.waitForDisconnect(of: "/hold")
            XCTAssertTrue(closed, "\(name): the losing attempt's connection stayed open")
            // A stream (every generated OpenAPI call is one) is hedged on its head: the first
            // head wins, and the other request is cancelled.
            let streamStart = Date()
            var body = Data()
            for try await chunk in try await client.stream(AttemptEndpoint(path: "/hold?key=stream&seconds=3&slow=1")) { body += chunk }
            XCTAssertLessThan(Date().timeIntervalSince(streamStart), 2, "\(name): the stream was not hedged")
            XCTAssertEqual(faults.count("stream"), 2, name)
            XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("\"attempt\":2"), "\(name): \(String(decoding: body, as: UTF8.self))")
            let streamClosed = await server.waitForDisconnect(of: "/hold", count: 2)
            XCTAssertTrue(streamClosed, "\(name): the losing stream's connection stayed open")
            // A call answered before the delay is never hedged.
            _ = try await client.request(AttemptEndpoint(path: "/hold?key=fast&seconds=0"))
            XCTAssertEqual(faults.count("fast"), 1, name)
            // An endpoint can turn its client's hedging off.
            let unhedged = Task { try await client.request(AttemptEndpoint(path: "/hold?key=solo&seconds=0.4&slow=1", hedging: HedgingPolicy.none)) }
            _ = try await unhedged.value
            XCTAssertEqual(faults.count("solo"), 1, name)
        }
        // Under a limit of one call in flight, a hedge has no place of its own: it is not sent.
        let limited = OverloadPolicy(concurrencyLimit: ConcurrencyLimit(maximumInFlight: 1), hedging: HedgingPolicy(delay: .fixed(0.1)))
        let refusals = EventLog()
        try await with(server, Options(monitors: [refusals], overload: limited)) { client in
            let answer = try await client.request(AttemptEndpoint(path: "/hold?key=limited&seconds=0.5&slow=1"))
            XCTAssertEqual(answer.attempt, 1, name)
            XCTAssertEqual(faults.count("limited"), 1, "\(name): a hedge went past the limit")
            XCTAssertTrue(refusals.lines.contains("overload hedge_refused"), name)
        }
        // Under a limit of two, it takes the free place.
        let roomy = OverloadPolicy(concurrencyLimit: ConcurrencyLimit(maximumInFlight: 2), hedging: HedgingPolicy(delay: .fixed(0.1)))
        let roomyLog = EventLog()
        try await with(server, Options(monitors: [roomyLog], overload: roomy)) { client in
            let answer = try await client.request(AttemptEndpoint(path: "/hold?key=roomy&seconds=3&slow=1"))
            XCTAssertEqual(answer.attempt, 2, name)
            // Both places were given back: two calls go at once, neither queued.
            async let first = client.request(AttemptEndpoint(path: "/hold?key=after&seconds=0.2"))
            async let second = client.request(AttemptEndpoint(path: "/hold?key=after&seconds=0.2"))
            _ = try await (first, second)
            XCTAssertEqual(faults.count("after"), 2, name)
            XCTAssertFalse(roomyLog.lines.contains("overload queued"), "\(name): \(roomyLog.lines)")
        }
        // And one endpoint can hedge on a client that does not.
        try await with(server) { client in
            let answer = try await client.request(
                AttemptEndpoint(path: "/hold?key=own&seconds=3&slow=1", hedging: HedgingPolicy(delay: .fixed(0.1))))
            XCTAssertEqual(answer.attempt, 2, name)
            XCTAssertEqual(faults.count("own"), 2, name)
            var body = Data()
            let stream = try await client.stream(AttemptEndpoint(path: "/hold?key=own-stream&seconds=3&slow=1", hedging: HedgingPolicy(delay: .fixed(0.1))))
            for try await chunk in stream { body += chunk }
            XCTAssertEqual(faults.count("own-stream"), 2, "\(name): the stream's own hedging was not applied")
            XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("\"attempt\":2"), name)
        }
    }

    /// A client stopped while a call is in flight (which it lets finish), three calls wait for
    /// the host's one place, and another client's call waits 30 s to retry a 503: the waiting
    /// calls and the retry fail with `clientInvalidated` at once, unsent. Before, they waited
    /// for the place (up to the grace period, or the call in flight's time limit) or for the
    /// retry's wait to end, only to fail the same way.
    func callsWaitingWhenTheClientStops(_ server: TestServer, _ faults: FaultRoutes) async throws {
        let limited = Options(timeout: 60, overload: OverloadPolicy(concurrencyLimit: ConcurrencyLimit(maximumInFlight: 1, maximumQueued: 5)))
        let queueing = makeClient(limited.configuration(baseURL: server.baseURL))
        let retrying = makeClient(Options(retryPolicy: RetryPolicy(initialDelay: 30, jitter: 0), timeout: 60).configuration(baseURL: server.baseURL))
        let holder = Task { try await queueing.request(AttemptEndpoint(path: "/hold?key=stop-holder&seconds=30")) }
        let held = await waitUntil(timeout: 10) { faults.count("stop-holder") == 1 }
        XCTAssertTrue(held, name)
        let waiters = (0..<3).map { index in
            Task { try await queueing.request(AttemptEndpoint(path: "/hold?key=stop-waiter\(index)&seconds=0")) }
        }
        let retry = Task { try await retrying.request(AttemptEndpoint(path: "/flaky?key=stop-retry&fail=100")) }
        let answered = await waitUntil(timeout: 10) { faults.count("stop-retry") == 1 }
        XCTAssertTrue(answered, name)
        try await Task.sleep(nanoseconds: 100_000_000)
        let start = Date()
        let stopping = [queueing, retrying].map { client in Task { await stopLettingCallsFinish(client) } }
        for task in waiters + [retry] {
            let result = await task.result
            guard case EndpointKitError.clientInvalidated? = result.error else { return XCTFail("\(name): \(result)") }
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "\(name): the waiting calls waited on")
        XCTAssertEqual((0..<3).map { faults.count("stop-waiter\($0)") }, [0, 0, 0], "\(name): a waiting call was sent")
        XCTAssertEqual(faults.count("stop-retry"), 1, "\(name): the retry was sent")
        holder.cancel()
        _ = await holder.result
        for task in stopping { await task.value }
    }
}
