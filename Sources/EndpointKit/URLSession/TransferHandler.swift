import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One call's task: receives its events from ``SessionDelegate``, keeps the body in memory or
/// writes it to a ``DownloadFile``, reports progress, and resumes the caller exactly once.
final class TransferHandler: Sendable {
    typealias Completion = @Sendable (Result<ReceivedResponse, any Error>) -> Void

    struct State {
        var lifecycle = TaskLifecycle()
        var completion: Completion?
        var response: HTTPURLResponse?
        /// The call's file, until a 2xx head opens it in ``incoming``.
        var file: DownloadFile?
        /// The body since the head.
        var incoming: IncomingBody?
        /// Why ``TransferHandler/stop(_:cancelling:)`` ended the call; `nil` when the call's
        /// task ended (``stopped``): ``TransferHandler/didComplete(error:unreported:)`` ends it.
        var failure: (any Error)?
        /// The call was ended early (cancelled, timed out, refused): events that are still
        /// queued for its task are dropped, so no byte is written or counted after that.
        var stopped = false
        /// The response was complete when Foundation stopped at an authentication challenge.
        var endedAtChallenge = false
        /// A streamed head waits for its body's first bytes (or its end) before it goes to the
        /// caller: the body's length was declared, so those bytes come right behind it.
        var headWaitsForBody = false
        var sent: Int64 = 0
        /// When the streamed body's last bytes came (uptime, nanoseconds; see
        /// ``watchIdle(_:after:busyAt:)``).
        var lastArrival: UInt64 = 0

        /// The call's file: the opened one once the head has come.
        var callFile: DownloadFile? { incoming?.file ?? file }
    }

    let state: Locked<State>
    /// Where a download's bytes are written, off the delegate queue (on Linux Foundation hands
    /// it every chunk as fast as the socket delivers, so work done there lets chunks pile up in
    /// memory), and the writes handed to it. A call that keeps its body in memory has none.
    private let writer: (queue: DispatchQueue, writes: Locked<Writes>)?

    /// The writes handed to ``writer``: how many are unfinished, and the failure that skips the rest.
    private struct Writes {
        var queued = 0
        var failure: (any Error)?
    }
    let url: URL?
    /// The request's method (`nil`: GET): an answer to a HEAD has no body.
    private let method: String?
    private let delegate: SessionDelegate
    private let uploadLength: Int64?
    private let bodyLimit: Int
    let timeoutInterval: TimeInterval
    private let progress: ProgressSink?
    let streaming: Streaming?

    /// Not inlined: its `State` would take room in the async frame of the caller.
    @inline(never)
    init(
        outgoing: Outgoing, file: DownloadFile?, bodyLimit: Int, delegate: SessionDelegate,
        progress: ProgressSink?, streaming: Streaming? = nil
    ) {
        self.state = Locked(State(file: file))
        self.writer = file == nil ? nil : (DispatchQueue(label: "EndpointKit.download-writer"), Locked(Writes()))
        self.url = outgoing.request.url
        self.method = outgoing.request.httpMethod
        self.timeoutInterval = outgoing.request.idleTimeout(past: outgoing.timeout)
        self.delegate = delegate
        self.uploadLength = outgoing.carriesBody ? outgoing.bodyLength : nil
        self.bodyLimit = bodyLimit
        self.progress = progress
        self.streaming = streaming
    }

    /// Sets the completion before the task exists, so a cancel that arrives first is reported.
    func onCompletion(_ completion: @escaping Completion) {
        state.withLock { $0.completion = completion }
    }

    /// Records the task; `false` (and the call is finished) if it was cancelled or stopped first.
    func start(_ task: URLSessionTask) -> Bool {
        let (started, failure) = state.withLock { state in
            (!state.stopped && state.lifecycle.start(task), state.failure)
        }
        if !started { finish(.failure(failure ?? CancellationError())) }
        return started
    }

    /// Cancels the call at once; safe from any thread, at any time, any number of times.
    func cancel() { stop(CancellationError(), cancelling: true) }

    /// Ends the call with `error` (a timeout, a refused response) at once, unless it ended already.
    func fail(_ error: any Error) {
        stop(error, cancelling: false)
    }

    /// Ends the call now, without waiting for the task's completion: Foundation queues the
    /// task's events on the delegate queue as fast as the socket delivers, so a cancel queued
    /// behind them would land only after hundreds of megabytes. From here on every event of the
    /// task is dropped. A download's file keeps an exact prefix of the body (with its resume
    /// record): every byte counted when the writer has caught up; when writes are still queued
    /// behind a slow disk, only those written, the rest skipped, so the call ends once the write
    /// under way (at most 1 MiB) is done.
    private func stop(_ error: any Error, cancelling: Bool) {
        var ending = false
        let taken = state.withLock { state -> (URLSessionTask?, FileHandle?, Data, DownloadFile?)? in
            let task = cancelling ? state.lifecycle.cancel() : state.lifecycle.runningTask
            guard !state.stopped else {
                ending = state.failure == nil
                return nil
            }
            state.stopped = true
            state.failure = state.failure ?? error
            defer { (state.incoming, state.file) = (nil, nil) }
            return (task, state.incoming?.handle, state.incoming?.takePending() ?? Data(), state.callFile)
        }
        // The task ended and `didComplete` ends the call: with `error`, after the write under way
        // (the rest are skipped), its file deleted before the caller resumes.
        guard let (task, handle, pending, file) = taken else { return ending ? skipWrites(error) : () }
        if let task { delegate.cancel(task) }
        if let streaming {
            streaming.chunks.finish(throwing: error)
            return finish(.failure(error))
        }
        guard let handle, let (queue, writes) = writer else {
            file?.failed()
            return finish(.failure(error))
        }
        let caughtUp = writes.withLock { writes in
            if writes.queued == 0 { return true }
            writes.failure = writes.failure ?? error
            return false
        }
        queue.async {
            if caughtUp, writes.withLock({ $0.failure == nil }) { try? handle.write(contentsOf: pending) }
            try? handle.close()
            file?.failed()
            self.finish(.failure(error))
        }
    }

    /// Ends the call with `result` unless it ended already. Before the completion is set (a
    /// cancel that came first) it does nothing: ``start(_:)`` finishes the call then. A
    /// download that completed as the call was cancelled is handed to no one: its temporary
    /// `file` is deleted.
    func finish(_ result: Result<ReceivedResponse, any Error>, completing file: DownloadFile? = nil) {
        let (completion, cancelled): (Completion?, Bool) = state.withLock { state in
            guard let completion = state.completion, state.lifecycle.finish() else { return (nil, false) }
            state.completion = nil
            return (completion, state.lifecycle.isCancelled)
        }
        if completion == nil || cancelled { file?.abandoned() }
        completion?(cancelled ? .failure(CancellationError()) : result)
    }

    /// The response (a 401 with a challenge) has wholly arrived, and Foundation on Linux will
    /// now wait for a credential forever: the task is about to be cancelled, and the call ends
    /// with that response as received. `false` if the call had no response yet.
    func endAtChallenge() -> Bool {
        state.withLock { state in
            guard state.response != nil else { return false }
            state.endedAtChallenge = true
            return true
        }
    }

    func didReceive(response: URLResponse) -> URLSession.ResponseDisposition {
        guard let http = response as? HTTPURLResponse else { return .allow }
        let sent = state.withLock { $0.sent }
        if let uploadLength, sent < uploadLength {
            report(TransferProgress(direction: .upload, completedBytes: uploadLength, totalBytes: uploadLength))
        }
        let (refused, waits) = state.withLock { state -> ((any Error)?, Bool) in
            guard !state.stopped else { return (nil, false) }
            state.response = http
            let length = http.value(forHTTPHeaderField: "Content-Length")
            let expected = IncomingBody.expectedLength(
                method: method, statusCode: http.statusCode, contentEncoding: http.value(forHTTPHeaderField: "Content-Encoding"),
                contentLength: length)
            do {
                if let differing = URLError.differingLengths(in: length) {
                    throw EndpointKitError.transportFailed(url: url, underlying: differing)
                }
                state.incoming = try IncomingBody(head: http, expected: expected, file: state.file, bodyLimit: bodyLimit, url: url)
                state.headWaitsForBody = streaming != nil && expected != nil
                return (nil, state.headWaitsForBody)
            } catch {
                return (error, false)
            }
        }
        // Foundation on Linux ignores a `.cancel` disposition; cancel the task instead.
        if let refused { fail(refused) }
        if streaming != nil, refused == nil, !waits {
            // A body of unknown length (a feed, say) may not come for a while: its head goes to
            // the caller after what the delegate queue holds already. A small answer's body and
            // end mostly come with it, and the reader finds them waiting instead of being woken
            // for each. A task that ends first hands the head over itself.
            delegate.queue.addOperation { [self] in handOverHead() }
        }
        return .allow
    }

    func didReceive(data: Data) {
        if let streaming { return stream(data, to: streaming) }
        let (report, failure) = state.withLock { state -> (TransferProgress?, (any Error)?) in
            guard !state.stopped, state.incoming != nil else { return (nil, nil) }
            if state.incoming?.handle != nil, let error = writer?.writes.withLock({ $0.failure }) { return (nil, error) }
            do {
                // In place (`incoming?.`): a copy would copy the body at every chunk.
                if let full = try state.incoming?.take(data), let handle = state.incoming?.handle { write(full, to: handle) }
            } catch {
                return (nil, error)
            }
            return (state.incoming?.progress, nil)
        }
        if let failure { fail(failure) }
        if let report { self.report(report) }
    }

    func didSend(totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        let report = state.withLock { state -> TransferProgress? in
            guard !state.stopped, totalBytesSent > state.sent else { return nil }
            state.sent = totalBytesSent
            let total = uploadLength ?? (totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil)
            return TransferProgress(direction: .upload, completedBytes: totalBytesSent, totalBytes: total)
        }
        if let report { self.report(report) }
    }

    /// The task has ended, with `error` if it failed. `unreported` is the task's response as
    /// Foundation kept it, for an answer whose head never came to ``didReceive(response:)``.
    func didComplete(error: (any Error)?, unreported: HTTPURLResponse? = nil) {
        let ended = state.withLock { state -> (HTTPURLResponse?, IncomingBody?, DownloadFile?, (any Error)?)? in
            // A stopped call has ended already, and its file is no longer this task's.
            guard !state.stopped else { return nil }
            state.stopped = streaming == nil  // A cancel from here on waits for this end (see `stop`).
            defer { (state.incoming, state.file) = (nil, nil) }
            // Bytes that arrived before a failure are a valid prefix to resume after.
            if let handle = state.incoming?.handle, let pending = state.incoming?.takePending() { write(pending, to: handle) }
            return (state.response ?? unreported, state.incoming, state.callFile, state.endedAtChallenge ? nil : error)
        }
        guard let (response, incoming, file, error) = ended else { return }
        let handle = incoming?.handle
        if let streaming { return endStream(streaming, response: response, failure: error.map(transportError)) }
        writer?.queue.sync {}
        let failure = writer?.writes.withLock { $0.failure }
        try? handle?.close()
        if let failure = failure ?? error.map(transportError) {
            file?.failed()
            return finish(.failure(failure))
        }
        guard let response else {
            file?.failed()
            return finish(.failure(EndpointKitError.invalidResponse(url: url)))
        }
        if let incoming { report(incoming.finalProgress) }
        if let file, handle != nil {
            file.completed()
            finish(.success(ReceivedResponse(response: response, body: Data(), fileURL: file.url)), completing: file)
        } else {
            file?.failed()
            finish(.success(ReceivedResponse(response: response, body: incoming?.body ?? Data(), fileURL: nil)))
        }
    }

    /// Reports progress; a sink that throws (the caller cancelled from its handler) ends the
    /// call at once.
    private func report(_ value: TransferProgress) {
        do {
            try progress?(value)
        } catch {
            cancel()
        }
    }

    /// Skips the download's writes not yet begun, and fails the call with `error` if none failed it.
    private func skipWrites(_ error: any Error) { writer?.writes.withLock { $0.failure = $0.failure ?? error } }

    private func write(_ data: Data, to handle: FileHandle) {
        guard let (queue, writes) = writer else { return }
        writes.withLock { $0.queued += 1 }
        queue.async {
            defer { writes.withLock { $0.queued -= 1 } }
            guard writes.withLock({ $0.failure == nil }) else { return }
            do {
                try handle.write(contentsOf: data)
            } catch {
                writes.withLock { $0.failure = error }
            }
        }
    }
}
