import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where the ``OverloadPolicy`` meets each request a call sends (every attempt and redirect):
/// the host's circuit may refuse it, its queue may hold it, and a late answer (a late head, for
/// a stream) may be hedged.
/// Under a cache, so that a stored answer is served whatever state the host is in.
struct OverloadTransport: Transport {
    let overload: OverloadGuard
    let transport: any Transport

    var isOpen: Bool { transport.isOpen }

    nonisolated(nonsending) func send(
        _ outgoing: Outgoing, into file: DownloadFile?, timeout: TimeInterval?, bodyLimit: Int,
        progress: ProgressSink?
    ) async throws -> ReceivedResponse {
        let hedging = outgoing.hedging ?? overload.policy.hedging
        // Nothing to guard (the default policy): the request goes straight on.
        guard hedging != nil || overload.circuits != nil || overload.queues != nil else {
            return try await transport.send(outgoing, into: file, timeout: timeout, bodyLimit: bodyLimit, progress: progress)
        }
        // A download to a file is not hedged: two attempts cannot write one file.
        return try await guarded(outgoing, within: timeout, hedging: file == nil ? hedging : nil, status: \.head.statusCode) {
            [transport] timeout in
            try await transport.send(outgoing, into: file, timeout: timeout, bodyLimit: bodyLimit, progress: progress)
        }
    }

    nonisolated(nonsending) func stream(_ outgoing: Outgoing, timeout: TimeInterval?) async throws -> ResponseStream {
        let hedging = outgoing.hedging ?? overload.policy.hedging
        guard hedging != nil || overload.circuits != nil || overload.queues != nil else {
            return try await transport.stream(outgoing, timeout: timeout)
        }
        return try await guarded(outgoing, within: timeout, hedging: hedging, status: \.head.statusCode) { [transport] timeout in
            try await transport.stream(outgoing, timeout: timeout)
        }
    }

    /// Sends `outgoing` with `send` under the host's circuit and queue, hedged as `hedging`
    /// says when it may be: the first answer wins (for a stream, the first head). `send` is
    /// given the time left of `timeout` after the wait in the queue. Apart from the sends, so
    /// that its state takes room in a call's task only when the policy guards requests.
    @inline(never)
    private func guarded<Answer: Sendable>(
        _ outgoing: Outgoing, within timeout: TimeInterval?, hedging: HedgingPolicy?, status: KeyPath<Answer, Int> & Sendable,
        _ send: @escaping @Sendable (_ timeout: TimeInterval?) async throws -> Answer
    ) async throws -> Answer {
        try await overload.guarding(outgoing.request.url, within: timeout) { left in
            let host = hedging == nil ? "" : OverloadGuard.host(of: outgoing.request.url)
            guard let hedging, Self.isHedgeable(outgoing), let delay = hedgeDelay(hedging, host: host) else {
                let answer = try await send(left)
                return (answer, answer[keyPath: status])
            }
            let start = CallContext.now
            let answer = try await hedged(after: delay, host: host) { try await send(left) }
            if case .percentile = hedging.delay { overload.latencies.add(CallContext.seconds(since: start), host: host) }
            return (answer, answer[keyPath: status])
        }
    }

    /// Sends with `send`; if no answer came after `delay` seconds, sends again (when the budget
    /// allows) and takes the first answer, cancelling the other attempt. An error before the
    /// hedge is the call's; after it, the other attempt's answer is waited for.
    private func hedged<Answer: Sendable>(
        after delay: TimeInterval, host: String, _ send: @escaping @Sendable () async throws -> Answer
    ) async throws -> Answer {
        try await withThrowingTaskGroup(of: Answer?.self) { group in
            group.addTask { try await send() }
            group.addTask {
                try await Task.sleep(nanoseconds: delay.nanoseconds)
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
                    // The hedge takes a place of its own under the host's limit, if one is free
                    // (it does not wait for one, nor send past the limit), then pays the budget.
                    let placed = overload.queues?.enterIfFree(host) ?? true
                    guard placed, overload.budget?.withdraw() ?? true else {
                        if placed { overload.queues?.leave(host) }
                        overload.tell(.hedgeRefused, host: host)
                        continue
                    }
                    overload.tell(.hedged, host: host, seconds: delay)
                    running += 1
                    group.addTask { [queues = overload.queues] in
                        defer { queues?.leave(host) }
                        return try await send()
                    }
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

    /// The delay of `hedging` for `host`, or `nil` when it never hedges.
    private func hedgeDelay(_ hedging: HedgingPolicy, host: String) -> TimeInterval? {
        switch hedging.delay {
        case .fixed(let seconds): seconds
        case .percentile(let percentile, let minimum): max(minimum, overload.latencies.percentile(percentile, host: host) ?? minimum)
        case .never: nil
        }
    }

    /// Idempotent, with a body that can be sent twice at once (in memory).
    private static func isHedgeable(_ outgoing: Outgoing) -> Bool {
        let method = HTTPMethod(outgoing.request.httpMethod ?? "GET")
        guard [.get, .head, .options, .put, .delete, .trace].contains(method), outgoing.canReplayBody else { return false }
        switch outgoing.body {
        case nil, .data?: return true
        case .file?, .stream?, .produced?: return false
        }
    }
}
