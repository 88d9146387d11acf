import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One call's events, told to the client's monitor as the pipeline moves the call along; with
/// no monitor every method returns at once, having made and kept nothing. It also keeps what
/// the call last sent and received, for the events that report it (never to steer the call).
struct CallEvents {
    let monitor: (any CallMonitor)?
    /// Whether there is a monitor: read first by every event, so that a call without one does
    /// not copy the optional existential (a retain and a release) at each.
    private let observed: Bool
    private(set) var call: CallContext
    /// The last request built or sent, and the last response and in-memory body received.
    private(set) var request: URLRequest?
    private(set) var response: HTTPURLResponse?
    private(set) var body: Data?
    /// What the cache did for the last attempt.
    var cache: CacheOutcome?
    /// Whether the last response's body goes to the caller as a stream.
    private var bodyIsStreamed = false
    private var started = false
    private var attemptUptime: UInt64 = 0
    private var bytes: (sent: Int64?, received: Int64) = (0, 0)

    init(monitor: (any CallMonitor)?, call: CallContext) {
        self.monitor = monitor
        self.observed = monitor != nil
        self.call = call
    }

    /// The call is about to send `request` (built, its URL resolved against the client's base
    /// URL, not yet adapted): the request its events name if it fails before sending.
    mutating func preparing(_ request: URLRequest) {
        if observed { self.request = request }
    }

    /// Attempt `call.attempt` sends `request`, with the header fields the monitor adds; the
    /// first one also starts the call.
    mutating func attemptStarted(_ call: CallContext, request: inout URLRequest) {
        self.call = call
        guard observed, let monitor else { return }
        (self.request, response, body) = (request, nil, nil)
        startCall(monitor)
        attemptUptime = CallContext.now
        let event = AttemptStarted(call: call, request: request)
        monitor.attemptStarted(event)
        let fields = monitor.headers(for: event)
        if !fields.isEmpty { request.setFields(fields.lazy.map { ($0.name, $0.value) }) }
        self.request = request
    }

    /// The attempt's `response` redirects to `next`.
    mutating func redirected(_ response: HTTPURLResponse, to next: URLRequest) {
        guard observed, let monitor else { return }
        request = next
        monitor.redirectFollowed(RedirectFollowed(call: call, response: response, request: next))
    }

    /// The attempt that sent `outgoing` ended with what `record` received (or without a
    /// response) and `error`. The record is read in place (`inout`, never changed): a copy of
    /// what it received would take room in every call's task.
    mutating func attemptFinished(_ record: inout AttemptRecord, error: (any Error)?, sending outgoing: Outgoing) {
        guard observed, let monitor else { return }
        let received = record.received
        if let received {
            (response, body) = (received.response, received.fileURL == nil ? received.body : nil)
        }
        cache = received?.cacheOutcome
        bodyIsStreamed = received?.bodyIsStreamed ?? false
        guard let request, started else { return }
        let bytesReceived: Int64? = received.map { received in
            received.fileURL.flatMap { (try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber)?.int64Value }
                ?? Int64(received.body.count)
        }
        bytes = (outgoing.carriesBody ? outgoing.bodyLength : 0, bytesReceived ?? 0)
        monitor.attemptFinished(
            AttemptFinished(
                call: call, request: request, response: response, error: error, bytesSent: bytes.sent,
                bytesReceived: bytes.received, duration: CallContext.seconds(since: attemptUptime), cache: cache,
                bodyIsStreamed: bodyIsStreamed))
    }

    /// The attempt failed with `reason`; the next is sent after `delay` seconds.
    func retryScheduled(after delay: TimeInterval, reason: any Error) {
        guard observed, let monitor, let request else { return }
        monitor.retryScheduled(
            RetryScheduled(call: call, delay: delay, reason: reason, request: request, response: response, body: body))
    }

    /// The call ended with `error`, or with its content when `nil`.
    mutating func callFinished(_ error: (any Error)?) {
        guard observed, let monitor else { return }
        startCall(monitor)
        monitor.callFinished(
            CallFinished(
                call: call, request: request, response: response, body: body, error: error,
                duration: call.elapsed, bytesSent: bytes.sent, bytesReceived: bytes.received, cache: cache,
                bodyIsStreamed: bodyIsStreamed))
    }

    private mutating func startCall(_ monitor: any CallMonitor) {
        guard !started else { return }
        started = true
        monitor.callStarted(CallStarted(call: call, request: request))
    }
}
