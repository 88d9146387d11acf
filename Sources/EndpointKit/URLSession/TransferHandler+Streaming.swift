import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TransferHandler {
    /// Where a streamed body goes: the chunks the reader iterates, and the bytes waiting for
    /// it (Foundation cannot pause a transfer, so a slow reader has a limit).
    struct Streaming: Sendable {
        let chunks: AsyncThrowingStream<Data, any Error>.Continuation
        let waiting: Locked<Int>
        let limit: Int
    }

    /// A chunk of a streamed body: to the reader, unless too many bytes wait for it already; a
    /// head that waited for the body goes with its first chunk. A body whose declared length
    /// has all come ends with its last chunk: the reader finds the end with the bytes, instead
    /// of being woken again for the task's end.
    func stream(_ data: Data, to streaming: Streaming) {
        let waiting = streaming.waiting.withLock { waiting in
            waiting += data.count
            return waiting
        }
        guard waiting <= streaming.limit else {
            return fail(EndpointKitError.consumerTooSlow(url: url, limit: streaming.limit))
        }
        streaming.chunks.yield(data)
        let now = DispatchTime.now().uptimeNanoseconds
        let whole = state.withLock { state in
            state.lastArrival = now
            return state.incoming?.pass(data.count) ?? false
        }
        if whole { streaming.chunks.finish() }
        handOverHead(onlyIfWaiting: true)
    }

    /// Fails the stream with ``EndpointKitError/timedOut(url:limit:)`` (and cancels its task)
    /// once no byte has come for `limit` while none waited for the reader: Foundation on Linux
    /// keeps a transfer whose body stalls for 60 s, whatever the request's timeout. Checked
    /// `after` seconds, then as often as needed until the body ends; bytes found waiting for
    /// a slow reader count as activity (`busyAt`, uptime in nanoseconds).
    func watchIdle(_ limit: TimeInterval, after delay: TimeInterval? = nil, busyAt: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        // A body that came whole with its head (most small answers) sets no timer.
        guard delay != nil || lastArrival != nil else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + min(max(delay ?? limit, 0.001), 1e6)) { [weak self] in
            guard let self, let streaming, let lastArrival else { return }
            let now = DispatchTime.now().uptimeNanoseconds
            guard streaming.waiting.withLock({ $0 }) == 0 else { return watchIdle(limit, busyAt: now) }
            let silent = Double(now &- max(lastArrival, busyAt)) / 1e9
            guard silent < limit else { return fail(EndpointKitError.timedOut(url: url, limit: limit)) }
            watchIdle(limit, after: limit - silent, busyAt: busyAt)
        }
    }

    /// When the streamed body's last bytes came; `nil` once it has ended or the call has stopped.
    private var lastArrival: UInt64? {
        state.withLock { state in
            state.stopped || state.incoming?.isComplete == true || state.lifecycle.runningTask == nil ? nil : state.lastArrival
        }
    }

    /// Hands the streamed head to the caller, unless it has gone already or the call has
    /// stopped; `onlyIfWaiting`: only a head that waits for its body's first bytes.
    func handOverHead(onlyIfWaiting: Bool = false) {
        let head = state.withLock { state -> (Completion, HTTPURLResponse)? in
            guard !state.stopped, state.headWaitsForBody || !onlyIfWaiting, let response = state.response else { return nil }
            state.headWaitsForBody = false
            return state.completion.take().map { ($0, response) }
        }
        if let (completion, response) = head { completion(.success(ReceivedResponse(response: response, body: Data(), fileURL: nil))) }
    }

    /// The end of a streamed task: its head (if it has not gone) or its failure to the caller,
    /// then the end of the body to the reader.
    func endStream(_ streaming: Streaming, response: HTTPURLResponse?, failure: (any Error)?) {
        finish(failure.map { .failure($0) } ?? (response.map { .success(ReceivedResponse(response: $0, body: Data(), fileURL: nil)) } ?? .failure(EndpointKitError.invalidResponse(url: url))))
        // When the head went earlier, `finish` had no completion left and did not mark the task
        // ended: it has, so the reader's end of the stream has no task to cancel.
        state.withLock { _ = $0.lifecycle.finish() }
        if let failure {
            streaming.chunks.finish(throwing: failure)
        } else {
            streaming.chunks.finish()
        }
    }
}
