import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where the ``OverloadPolicy`` meets each request a call sends (every attempt and redirect):
/// the host's circuit may refuse it, its queue may hold it, and a late answer may be hedged.
/// Under a cache, so that a stored answer is served whatever state the host is in.
struct OverloadTransport: Transport {
    let overload: OverloadGuard
    let transport: any Transport

    var isOpen: Bool { transport.isOpen }

    func send(
        _ outgoing: Outgoing, into file: DownloadFile?, timeout: TimeInterval?, bodyLimit: Int,
        progress: ProgressSink?
    ) async throws -> ReceivedResponse {
        let hedgeable = file == nil && Self.isHedgeable(outgoing)
        return try await guarded(outgoing) { host in
            let start = CallContext.now
            let received: ReceivedResponse
            if hedgeable, let delay = hedgeDelay(host) {
                received = try await hedged(after: delay, host: host) {
                    try await transport.send(outgoing, into: nil, timeout: timeout, bodyLimit: bodyLimit, progress: progress)
                }
            } else {
                received = try await transport.send(outgoing, into: file, timeout: timeout, bodyLimit: bodyLimit, progress: progress)
            }
            overload.latencies?.add(CallContext.seconds(since: start), host: host)
            return (received, received.response.statusCode)
        }
    }

    func stream(_ outgoing: Outgoing, timeout: TimeInterval?) async throws -> ResponseStream {
        try await guarded(outgoing) { _ in
            let stream = try await transport.stream(outgoing, timeout: timeout)
            return (stream, stream.response.statusCode)
        }
    }

    /// Runs `send` under the host's circuit and queue, and counts its outcome (by status).
    private func guarded<Answer>(
        _ outgoing: Outgoing, _ send: (String) async throws -> (Answer, Int)
    ) async throws -> Answer {
        let host = OverloadGuard.host(of: outgoing.request.url)
        let admission = try admit(host)
        if let queues = overload.queues {
            let start = CallContext.now
            do {
                if try await queues.enter(host) { overload.tell(.queued, host: host, seconds: CallContext.seconds(since: start)) }
            } catch {
                if case EndpointKitError.tooManyCalls = error { overload.tell(.queueFull, host: host) }
                record(.uncounted, host: host, admission: admission)
                throw error
            }
        }
        defer { overload.queues?.leave(host) }
        do {
            let (answer, status) = try await send(host)
            record(status >= 500 ? .failure : .success, host: host, admission: admission)
            return answer
        } catch {
            record(Self.outcome(of: error), host: host, admission: admission)
            throw error
        }
    }

    /// The circuit's word on a call to `host`: throws when it is open.
    private func admit(_ host: String) throws -> CircuitBoard.Admission {
        guard let circuits = overload.circuits else { return .pass }
        let admission = circuits.admit(host)
        switch admission {
        case .pass: break
        case .probe: overload.tell(.circuitProbe, host: host)
        case .reject(let until):
            let wait = until > CallContext.now ? Double(until - CallContext.now) / 1e9 : 0
            overload.tell(.circuitRejected, host: host, seconds: wait)
            throw EndpointKitError.circuitOpen(host: host, until: Date().addingTimeInterval(wait))
        }
        return admission
    }

    private func record(_ outcome: CircuitBoard.Outcome, host: String, admission: CircuitBoard.Admission) {
        switch overload.circuits?.record(outcome, host: host, admission: admission) {
        case .opened?: overload.tell(.circuitOpened, host: host, seconds: overload.policy.circuitBreaker?.openDuration)
        case .closed?: overload.tell(.circuitClosed, host: host)
        case nil: break
        }
    }

    /// Sends with `send`; if no answer came after `delay` seconds, sends again (when the budget
    /// allows) and takes the first answer, cancelling the other attempt. An error before the
    /// hedge is the call's; after it, the other attempt's answer is waited for.
    private func hedged(
        after delay: TimeInterval, host: String, _ send: @escaping @Sendable () async throws -> ReceivedResponse
    ) async throws -> ReceivedResponse {
        try await withThrowingTaskGroup(of: ReceivedResponse?.self) { group in
            group.addTask { try await send() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                return nil
            }
            var running = 1
            var firstError: (any Error)?
            while let next = await group.nextResult() {
                switch next {
                case .success(let received?):
                    group.cancelAll()
                    return received
                case .success(nil):
                    guard overload.budget?.withdraw() ?? true else {
                        overload.tell(.hedgeRefused, host: host)
                        continue
                    }
                    overload.tell(.hedged, host: host, seconds: delay)
                    running += 1
                    group.addTask { try await send() }
                case .failure(let error):
                    if error is CancellationError, Task.isCancelled { throw error }
                    running -= 1
                    firstError = firstError ?? error
                    if running == 0 {
                        group.cancelAll()
                        throw error
                    }
                }
            }
            throw firstError ?? CancellationError()
        }
    }

    /// The hedge delay for `host`, or `nil` when calls are not hedged.
    private func hedgeDelay(_ host: String) -> TimeInterval? {
        switch overload.policy.hedging?.delay {
        case .fixed(let seconds)?: seconds
        case .percentile(let percentile, let minimum)?:
            max(minimum, overload.latencies?.percentile(percentile, host: host) ?? minimum)
        case nil: nil
        }
    }

    /// Idempotent, with a body that can be sent twice at once (in memory).
    private static func isHedgeable(_ outgoing: Outgoing) -> Bool {
        let method = HTTPMethod(outgoing.request.httpMethod ?? "GET")
        guard [.get, .head, .options, .put, .delete, .trace].contains(method), outgoing.canReplayBody else { return false }
        switch outgoing.body {
        case nil, .data?: return true
        case .file?, .stream?: return false
        }
    }

    /// How the breaker counts a call that ended with `error`.
    private static func outcome(of error: any Error) -> CircuitBoard.Outcome {
        switch error {
        case EndpointKitError.timedOut, EndpointKitError.transportFailed: .failure
        default: .uncounted
        }
    }
}
