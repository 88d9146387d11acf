import AsyncHTTPClient
@_spi(Transport) @_spi(Locking) import EndpointKit
import Foundation
import NIOCore
import NIOHTTP1

/// A response received through AsyncHTTPClient's delegate API: its head, then its body chunk
/// by chunk (``next()``). A streamed body has back-pressure: the connection is not read while
/// 256 KiB wait for the reader. A body read whole is gathered into one buffer as it comes, and
/// ``next()`` wakes its reader once it is all there (or past its limit); ``head()`` then waits
/// for the same moment, so that a caller wakes once a response, not for its head and again for
/// its body (against a server in another process, fewer context switches and less CPU a
/// request: see the client's Speed documentation). For a streamed body, ``head()`` returns as
/// soon as the head is there.
///
/// Every callback stores what it got and hands it to the caller if one waits, so the chunks
/// that come with the head (all of a small body, usually) are there when the reader asks: no
/// thread waits on each. (The `async` API's body sequence wakes its reader once for each; its
/// `execute` schedules a deadline timer on an event loop for every request, even for
/// `.distantFuture`, and starts a task to register the request.) Cancelling a wait, or
/// ``cancel()``, cancels the request. With an idle limit (a stream's timeout), a reader that waits
/// that long for the body's next bytes gets ``EndpointKit/EndpointKitError/timedOut(url:limit:)``,
/// and the request is cancelled; past its time limit, a response is ended by ``TimeLimitWatch``.
final class ResponseReceiver: HTTPClientResponseDelegate {
    typealias Response = Void

    private let url: URL
    /// The longest a reader waits for the body's next bytes, if limited.
    private let idleLimit: TimeInterval?
    /// For a body read whole, the most bytes it may have; `nil` for a body streamed.
    private let wholeLimit: Int?
    /// When the response must have ended, and that limit in seconds, if limited.
    private let timeLimit: (deadline: NIODeadline, seconds: TimeInterval)?
    private let state = Locked(State())
    private static let highWater = 256 << 10

    /// A receiver of the response to a request for `url`; a reader waiting longer than
    /// `idleLimit` for the body's next bytes fails. A body read whole (`wholeLimit`, the most
    /// bytes it may have) is kept as it comes, without back-pressure, which would only delay
    /// it (its reader keeps all of it anyway), and handed over whole. A response not ended by
    /// `timeLimit`'s deadline (with an `idleLimit`, its head not come) fails with a timeout, and
    /// the request is cancelled (see ``attach(_:watching:limits:)``).
    init(url: URL, idleLimit: TimeInterval? = nil, wholeLimit: Int? = nil, timeLimit: (deadline: NIODeadline, seconds: TimeInterval)? = nil) {
        self.url = url
        self.idleLimit = idleLimit
        self.wholeLimit = wholeLimit
        self.timeLimit = timeLimit
    }

    /// Keeps the request's task, to cancel it, while its response is arriving, and has `limits`
    /// watch its time limit (nothing can cancel before this: the caller gets the receiver
    /// after it). `watching`, a task that fails ends the response too: AsyncHTTPClient fails a
    /// request it does not start, its `HTTPClient` shut down, without telling the delegate, and
    /// the caller would wait for ever. (Not for every request: from another thread than the
    /// task's event loop, watching costs a hop to that loop; see ``SilentCallWatch``.)
    func attach(_ task: HTTPClient.Task<Void>, watching: Bool, limits: TimeLimitWatch) {
        state.withLock { state in
            guard state.ending == nil else { return }
            state.task = task
            // A streamed body's time limit ends at its head, which may have come already.
            guard let deadline = timeLimit?.deadline, idleLimit == nil || state.head == nil else { return }
            state.limits = limits  // noted under this lock: the end, whenever it comes, drops it
            limits.note(self, until: deadline)
        }
        if watching { watch(task) }
    }

    /// Ends the response with its timeout, its time limit passed (see ``TimeLimitWatch``).
    func timeIsUp() {
        guard let seconds = timeLimit?.seconds else { return }
        end(.failure(EndpointKitError.timedOut(url: url, limit: seconds)), cancelling: true)
    }

    /// Watches the request's task, as `attach(_:watching:limits:)` does, if its head has not come.
    func watchIfSilent() {
        if let task = state.withLock({ $0.head == nil && $0.ending == nil ? $0.task : nil }) { watch(task) }
    }

    private func watch(_ task: HTTPClient.Task<Void>) {
        task.futureResult.whenFailure { [self] error in end(.failure(error)) }
    }

    /// The response's head, as soon as it has come; a reader already waiting for the head of a
    /// body read whole is woken with the body (see the type's documentation). Its body follows
    /// with ``next()``.
    nonisolated(nonsending) func head() async throws -> HTTPResponseHead {
        try await wait(Waiter.head) { state in
            if let head = state.head { return .success(head) }
            return state.ending.map { $0.flatMap { .failure(EndpointKitError.invalidResponse(url: self.url)) } }
        }
    }

    /// The next chunk of a streamed body, or `nil` at its end; after the chunks that came
    /// before it, a failure.
    nonisolated(nonsending) func next() async throws -> ByteBuffer? {
        try await wait(Waiter.chunk) { state in
            if let chunk = state.readyChunk(wholeLimit: wholeLimit) { return .success(chunk) }
            // Timed only under a limit: a body read whole (a plain call) reads no clock.
            if idleLimit != nil, state.ending == nil { state.waitingSince = DispatchTime.now().uptimeNanoseconds }
            return state.ending.map { $0.map { nil } }
        }
    }

    /// Cancels the request, and fails what waits with `CancellationError`; nothing once the
    /// response has arrived whole.
    func cancel() {
        end(.failure(Self.cancelled), cancelling: true)
    }

    /// The error of a cancelled response, made once: every reader cancels as it goes, mostly
    /// after the end, and boxing a new error each time would allocate for every call.
    private static let cancelled: any Error = CancellationError()

    /// Waits for what `ready` finds (`nil`: not there yet); the callbacks hand it over then. The continuation
    /// is resumed once: here, or by whoever takes it from the state under the lock (no checked continuation).
    nonisolated(nonsending) private func wait<Value: Sendable>(
        _ waiter: (UnsafeContinuation<Value, any Error>) -> Waiter, ready: (inout State) -> Result<Value, any Error>?
    ) async throws -> Value {
        // Most often it is there already: no continuation (unless the task is cancelled, which
        // the cancellation handler below tells at once).
        if !Task.isCancelled, let found = take(ready) { return try found.get() }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                if let found = take(ready, otherwise: { $0.waiter = waiter(continuation) }) { continuation.resume(with: found) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// What `ready` finds, if anything (else `otherwise` runs, under the same lock); a paused
    /// connection is read again once the reader has taken enough.
    private func take<Value>(
        _ ready: (inout State) -> Result<Value, any Error>?, otherwise: (inout State) -> Void = { _ in }
    ) -> Result<Value, any Error>? {
        let (found, demand) = state.withLock { state in
            let found = ready(&state)
            if found == nil { otherwise(&state) }
            let demand = state.buffered < Self.highWater ? state.demand : nil
            if demand != nil { state.demand = nil }
            return (found, demand)
        }
        demand?.succeed(())
        return found
    }

    // MARK: AsyncHTTPClient's callbacks, on the request's event loop

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        if let idleLimit { checkIdle(after: idleLimit, on: task.eventLoop) }
        // A head that declares a longer body than one read whole may have is handed over at
        // once, as a streamed body's is, to be refused before the body comes. (Only a reader
        // waiting now can be held back: one that asks later gets the head at once.)
        let holdLimit = wholeLimit.flatMap { limit in
            (head.headers.first(name: "Content-Length").flatMap(Int.init) ?? 0) > limit ? nil : limit
        }
        let (handed, limits) = state.withLock { state in
            state.head = head
            // A streamed body's time limit ends at its head: the idle limit takes over.
            let limits = idleLimit == nil ? nil : state.limits.take()
            return (state.takeHeadWaiter(wholeLimit: holdLimit), limits)
        }
        limits?.drop(self)
        handed.map { $0.0.resume(returning: $0.1) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        typealias Outcome = (handed: HandedChunk?, head: HandedHead?, demand: EventLoopFuture<Void>?)
        let outcome = state.withLock { state -> Outcome in
            guard state.ending == nil else { return (nil, nil, nil) }
            // A body read whole is gathered into one buffer as it comes, as AsyncHTTPClient's
            // own accumulator does: the event loop's read buffer is then free for the next
            // read at once, where holding each chunk until the reader merges them made every
            // read take a fresh one.
            // (Taken out to be written: written in place, the buffer would be copied whole.)
            if wholeLimit != nil, var gathered = state.chunks.popLast() {
                gathered.writeImmutableBuffer(buffer)
                state.chunks.append(gathered)
            } else {
                state.chunks.append(buffer)
            }
            state.buffered += buffer.readableBytes
            // A waiting reader gets the chunk; a body read whole (and its head) only once past
            // its limit, to be refused.
            if let handed = state.takeChunkWaiter(wholeLimit: wholeLimit) { return (handed, nil, nil) }
            if let head = state.takeHeadWaiter(wholeLimit: wholeLimit) { return (nil, head, nil) }
            guard wholeLimit == nil, state.buffered >= Self.highWater else { return (nil, nil, nil) }
            let demand = task.eventLoop.makePromise(of: Void.self)
            state.demand = demand
            return (nil, nil, demand.futureResult)
        }
        outcome.handed.map { $0.0.resume(returning: $0.1) }
        outcome.head.map { $0.0.resume(returning: $0.1) }
        return outcome.demand ?? task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        end(.failure(error))
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        end(.success(()))
    }

    /// Ends the response with `ending` (unless it has ended) and hands it to a waiting caller;
    /// `cancelling`, also drops the unread chunks and cancels the request.
    private func end(_ ending: Result<Void, any Error>, cancelling: Bool = false) {
        typealias Outcome = (
            handed: HandedChunk?, waiter: Waiter?, demand: EventLoopPromise<Void>?, task: HTTPClient.Task<Void>?,
            limits: TimeLimitWatch?, headed: HandedHead?
        )
        let (handed, waiter, demand, task, limits, headed) = state.withLock { state -> Outcome in
            guard state.ending == nil else { return (nil, nil, nil, nil, nil, nil) }
            state.ending = ending
            state.idleCheck?.cancel()
            state.idleCheck = nil
            if cancelling { state.chunks.removeAll() }
            // A reader waiting for a body read whole gets what came first, then how it ended;
            // one waiting for the head gets it (unless cancelled), and the body after it.
            let handed = state.takeChunkWaiter(wholeLimit: wholeLimit)
            let headed = cancelling ? nil : state.takeHeadWaiter(wholeLimit: wholeLimit)
            // The task holds this receiver until it completes: no cycle left behind.
            defer { (state.waiter, state.demand, state.task) = (nil, nil, nil) }
            return (handed, state.waiter, state.demand, state.task, state.limits.take(), headed)
        }
        limits?.drop(self)
        // A promise must be completed; a cancelled task's end then finds the response ended.
        demand?.succeed(())
        if cancelling { task?.cancel() }
        handed.map { $0.0.resume(returning: $0.1) }
        headed.map { $0.0.resume(returning: $0.1) }
        switch (waiter, ending) {
        case (nil, _): break
        case (let waiter?, .failure(let error)): waiter.fail(error)
        case (.chunk(let continuation), .success): continuation.resume(returning: nil)
        // A head arrived is handed over at once: a head waiter at the end never got one.
        case (.head(let continuation), .success): continuation.resume(throwing: EndpointKitError.invalidResponse(url: url))
        }
    }
}

extension ResponseReceiver {
    /// Checks, `delay` from now and then as often as needed, whether the reader has waited
    /// ``idleLimit`` for a chunk; if so, ends the response with a timeout.
    private func checkIdle(after delay: TimeInterval, on eventLoop: any EventLoop) {
        guard let limit = idleLimit else { return }
        state.withLock { current in
            guard current.ending == nil else { return }
            current.idleCheck = eventLoop.scheduleTask(in: TimeAmount(delay)) { [self] in
                let waited = state.withLock { state -> TimeInterval? in
                    guard case .chunk = state.waiter else { return nil }
                    return Double(DispatchTime.now().uptimeNanoseconds &- state.waitingSince) / 1e9
                }
                guard let waited, waited >= limit else {
                    // Not waiting: a whole limit may pass before it is idle for that long.
                    return checkIdle(after: waited.map { limit - $0 } ?? limit, on: eventLoop)
                }
                end(.failure(EndpointKitError.timedOut(url: url, limit: limit)), cancelling: true)
            }
        }
    }
}
