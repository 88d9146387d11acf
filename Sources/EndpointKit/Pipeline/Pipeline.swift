import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The steps every call goes through, whatever does the I/O: build; for each attempt adapt,
/// send (following redirects), validate; decode; observe. SPI for EndpointKit's client packages.
@_spi(Transport) public struct Pipeline: Sendable {
    let requestAdapter: any RequestAdapter
    /// The adapter's leading ``BaseRequestAdapter``, applied once to the request a call
    /// builds: each attempt's adapters then find its URL resolved and need not copy it.
    let baseAdapter: BaseRequestAdapter?
    /// What each attempt runs once ``baseAdapter`` has been applied to the call's request (see
    /// ``RequestAdapterChain/afterBase(in:)``; `nil`: nothing), where the base would find
    /// nothing left to do; until then, all of ``requestAdapter``.
    let adaptersAfterBase: (any RequestAdapter)?
    /// Told every call's events: the response observer and the client's monitors, or `nil`.
    let monitor: (any CallMonitor)?
    let retryPolicy: RetryPolicy
    let timeout: TimeInterval?
    let maximumBodySize: Int
    let transport: any Transport
    /// The client's ``OverloadPolicy`` at work.
    let overload: OverloadGuard
    /// Whether the client has begun to stop; ends its calls' retry waits.
    let closing = ClientClosing()

    /// Creates a pipeline over `transport` with a client's settings: the `overload` policy
    /// guards each request sent (``OverloadTransport``), and with a `cache` every request is
    /// answered through it first (``CachingTransport``).
    public init(
        requestAdapter: any RequestAdapter, responseObserver: ResponseObserver?, monitors: [any CallMonitor] = [],
        retryPolicy: RetryPolicy, timeout: TimeInterval?, maximumBodySize: Int, cache: HTTPCache? = nil,
        overload: OverloadPolicy = .default, transport: any Transport
    ) {
        self.requestAdapter = requestAdapter
        self.baseAdapter = RequestAdapterChain.leadingBase(in: requestAdapter)
        self.adaptersAfterBase = RequestAdapterChain.afterBase(in: requestAdapter)
        self.monitor = CallMonitorGroup.combining(responseObserver, monitors)
        self.retryPolicy = retryPolicy
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.overload = OverloadGuard(overload, monitor: monitor)
        let guarded = OverloadTransport(overload: self.overload, transport: transport)
        self.transport = cache.map { CachingTransport(cache: $0, transport: guarded) } ?? guarded
    }

    /// Runs one call of a request, upload or download endpoint to its end: each attempt sends
    /// (following redirects), validates and decodes.
    nonisolated(nonsending) public func perform<C: Call>(
        _ call: C, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> C.Content {
        let progress = Self.sink(progress, waiting: CompletionBridge.reporter?.claim())
        return try await run(C.Settings.self, settings: call.endpoint, build: { try call.makeOutgoing() }) { outgoing, record, events in
            let answer = try await followingRedirects(outgoing, record: &record, events: &events, head: \.head) {
                [transport, maximumBodySize] hop in
                var hop = hop
                let file = call.downloadFile(for: &hop.request)
                return try await transport.send(hop, into: file, timeout: hop.timeout, bodyLimit: maximumBodySize, progress: progress)
            }
            record.received = answer
            try call.validate(outgoing.request, answer)
            return try Self.decode(C.Content.self, url: outgoing.request.url, answer) {
                try call.content(answer)
            }
        }
    }

    /// Ends the waits of the client's calls as the client stops: a retry waiting to be sent and
    /// a call waiting for a place in its host's queue fail with
    /// ``EndpointKitError/clientInvalidated`` at once, and so do those that come to wait later.
    /// Requests in flight are the client's to end.
    public func close() {
        closing.close()
        overload.queues?.close()
    }

    /// Waits `seconds`, unless the client stops first (see ``ClosingAwareClient``).
    public func waitWhileOpen(_ seconds: TimeInterval) async throws {
        try await closing.wait(seconds)
    }

    /// Where a call reports its bytes: to the caller's `progress`, and to a completion handler
    /// `waiting` for this call (calls made inside it, a credential refresh say, do not count
    /// there: the first call claims the reporter). The reporter passes on only counts that
    /// move forward, and never cancels: alone, it needs no wrapping of its own.
    static func sink(
        _ progress: (@Sendable (TransferProgress) -> Void)?, waiting: (@Sendable (TransferProgress) -> Void)?
    ) -> ProgressSink? {
        guard let waiting else { return progress.map(monotonic) }
        guard let progress else { return waiting }
        return monotonic { update in
            progress(update)
            waiting(update)
        }
    }

    /// The steps of every call, written once for requests, uploads, downloads, streams and
    /// WebSocket handshakes: build (an error of `build` names the endpoint, as
    /// ``EndpointKitError/invalidRequest(endpoint:underlying:)``); for each attempt adapt, tell the monitors (and take their
    /// header fields), prepare, run `attempt`; retry a failed attempt when a retrier says so,
    /// asked about what that attempt sent and received; tell the monitors how the call ended.
    /// Each attempt runs with the call's context as ``CallContext/current``. Generic over the
    /// settings, so that an endpoint larger than three words is not boxed for every call.
    nonisolated(nonsending) func run<Settings: EndpointSettings, Result>(
        _ endpointType: any Any.Type, settings: Settings,
        build: () throws -> (Outgoing, MultipartFormData?),
        attempt: nonisolated(nonsending) (Outgoing, inout AttemptRecord, inout CallEvents) async throws -> Result
    ) async throws -> Result {
        var events = CallEvents(monitor: monitor, call: CallContext(endpointType: endpointType, callName: settings.callName))
        overload.budget?.deposit()
        let deadline = events.call.deadline
        var temporaryFile: URL?
        defer { temporaryFile.map { try? FileManager.default.removeItem(at: $0) } }
        let timeout = settings.timeout ?? self.timeout
        var base: Outgoing?
        var baseApplied = false
        var number = 1
        var lastError: (any Error)?
        while true {
            let context = events.call.at(attempt: number)
            var record = AttemptRecord()
            do {
                return try await CallContext.$current.withValue(context) {
                    let built = try Self.attemptBase(
                        &base, endpointType, resolvingWith: baseAdapter, settings: (timeout, settings.cachePolicy, settings.hedging),
                        deadline: deadline, context: context, events: &events, build: build, temporaryFile: &temporaryFile,
                        baseApplied: &baseApplied)
                    record.request = built.request
                    try Task.checkCancellation()
                    var request = built.request
                    if let adapter = baseApplied ? adaptersAfterBase : requestAdapter {
                        request = try await RequestAdapterChain.run(adapter, on: request)
                    }
                    try InvalidMethod.check(request)
                    try InvalidPort.check(request)
                    events.attemptStarted(context, request: &request)
                    record.request = request
                    let sending = Self.prepared(built, sending: request)
                    do {
                        let result = try await attempt(sending, &record, &events)
                        events.attemptFinished(&record, error: nil, sending: sending)
                        events.callFinished(nil)
                        return result
                    } catch {
                        events.attemptFinished(&record, error: Self.normalized(error), sending: sending)
                        throw error
                    }
                }
            } catch {
                // Asked, and told, as part of the attempt: with its context as the current one.
                try await CallContext.$current.withValue(context) {
                    try await sendAgainOrEnd(
                        after: error, &record, replayable: base?.canReplayBody == true, number, settings, deadline, &events,
                        lastError: &lastError)
                }
                number += 1
            }
        }
    }

    /// What attempt `context.attempt` starts from: the call's request, built on the first
    /// attempt with the endpoint's `settings`, the same for every kind of call (an error of
    /// `build` names the endpoint, as
    /// ``EndpointKitError/invalidRequest(endpoint:underlying:)``) and kept in `base`, limited
    /// by the call's `deadline`; `baseApplied` says whether the base adapter was applied to it.
    /// Apart from ``run(_:settings:build:attempt:)`` so that its values take no room in every
    /// call's async frame.
    @inline(never)
    private static func attemptBase(
        _ base: inout Outgoing?, _ endpointType: any Any.Type, resolvingWith baseAdapter: BaseRequestAdapter?,
        settings: (timeout: TimeInterval?, cachePolicy: CachePolicy?, hedging: HedgingPolicy?), deadline: CallDeadline?,
        context: CallContext, events: inout CallEvents, build: () throws -> (Outgoing, MultipartFormData?),
        temporaryFile: inout URL?, baseApplied: inout Bool
    ) throws -> Outgoing {
        if base == nil {
            var (built, form): (Outgoing, MultipartFormData?)
            do {
                (built, form) = try build()
            } catch {
                throw EndpointKitError.invalidRequest(endpoint: String(describing: endpointType), underlying: error)
            }
            (built.timeout, built.cachePolicy, built.hedging) = settings
            // Failing here changes nothing: each attempt then runs every adapter, the base one
            // among them, which fails the same way, naming itself.
            if let baseAdapter { baseApplied = (try? baseAdapter.apply(to: &built.request)) != nil }
            events.preparing(built.request)
            if let form { temporaryFile = try write(form, into: &built) }
            base = built
        }
        guard var outgoing = base else { throw CancellationError() }
        if let deadline { outgoing.timeout = try limit(outgoing, by: deadline, elapsed: context.elapsed) }
        events.preparing(outgoing.request)
        return outgoing
    }

    /// Returns when the call is to be sent again after its attempt failed with `error` (kept in
    /// `lastError`); otherwise tells the monitors that the call ended, and throws the error (or
    /// the one a retrier threw). Only an attempt whose body can be sent again (`replayable`) is
    /// retried. A retry the overload guard refused unsent (the circuit opened during the retry's
    /// wait, or the host's queue is full) ends the call with the error of the attempt before it,
    /// such as the server's 503.
    /// Its own function, taking the record in place, so that neither its frame nor a copy of
    /// what the attempt received takes room in every call's task.
    @inline(never)
    private func sendAgainOrEnd(
        after error: any Error, _ record: inout AttemptRecord, replayable: Bool, _ attempt: Int,
        _ settings: any EndpointSettings, _ deadline: CallDeadline?, _ events: inout CallEvents,
        lastError: inout (any Error)?
    ) async throws {
        var error = Self.normalized(error)
        if let lastError, OverloadGuard.refusedUnsent(error) {
            error = lastError
        } else if let request = record.request, replayable {
            do {
                if try await retries(after: error, of: request, record.received?.response, attempt, settings, deadline, &events) {
                    lastError = error
                    return
                }
            } catch let retryError {
                error = Self.normalized(retryError)
            }
        }
        error = Self.namingTheDeadline(error, deadline)
        events.callFinished(error)
        throw error
    }

    /// Whether the call sends again after `error`: the adapters that retry, then the retry
    /// policy, are asked about `request` and `response` (the first "retry" wins), then the
    /// overload guard; a retry is sent after its delay.
    private func retries(
        after error: any Error, of request: URLRequest, _ response: HTTPURLResponse?, _ attempt: Int,
        _ settings: any EndpointSettings, _ deadline: CallDeadline?, _ events: inout CallEvents
    ) async throws -> Bool {
        guard !(error is CancellationError) else { return false }
        let retriers = RequestAdapterChain.retriers(in: requestAdapter) + [settings.retryPolicy ?? retryPolicy]
        for retrier in retriers {
            let decision = try await retrier.retry(request, response: response, error: error, attempt: attempt)
            guard case .retry(let delay) = decision else { continue }
            guard overload.allowsRetry(after: delay, deadline: deadline, url: request.url) else { return false }
            events.retryScheduled(after: delay, reason: error)
            if delay > 0 { try await closing.wait(delay) }
            return true
        }
        return false
    }

    /// A cancelled task's error, whatever it was, reads as `CancellationError`.
    static func normalized(_ error: any Error) -> any Error {
        Task.isCancelled || error is CancellationError ? CancellationError() : error
    }
}
