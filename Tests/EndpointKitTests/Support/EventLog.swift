import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A monitor that writes each event as one line, for tests to compare with what they expect:
/// `start GET /books/1`, `attempt 1 GET /books/1`, `redirect 302 /echo`,
/// `attempt 1 ended 200 sent 0 received 58` (`… sent 0 body streamed` for a stream), `retry 1
/// after 0.01`, `end 200` (`end 200 body streamed`) or `end error …`.
final class EventLog: CallMonitor {
    private let box = Guarded<[(id: UUID, line: String)]>([])

    /// The lines so far, in order.
    var lines: [String] { box.withLock { $0.map(\.line) } }

    /// The lines of each call, in order of calls.
    var calls: [[String]] {
        box.withLock { entries in
            var order: [UUID] = []
            var byCall: [UUID: [String]] = [:]
            for entry in entries {
                if byCall[entry.id] == nil { order.append(entry.id) }
                byCall[entry.id, default: []].append(entry.line)
            }
            return order.map { byCall[$0] ?? [] }
        }
    }

    private func add(_ call: CallContext, _ line: String) {
        // Every event runs with its call's context.
        let current = CallContext.current?.id == call.id ? "" : " (not current)"
        box.withLock { $0.append((call.id, line + current)) }
    }

    private static func describe(_ request: URLRequest?) -> String {
        guard let request else { return "nil" }
        return "\(request.httpMethod ?? "GET") \(request.url?.path ?? "?")"
    }

    private static func describe(_ response: HTTPURLResponse?, _ error: (any Error)?) -> String {
        switch error {
        case nil: return "\(response?.statusCode ?? 0)"
        case is CancellationError: return "cancelled"
        case EndpointKitError.timedOut?: return "timed out"
        case EndpointKitError.unacceptableStatus(let failure)?: return "refused \(failure.statusCode)"
        case let error?: return "error \(type(of: error))"
        }
    }

    func callStarted(_ event: CallStarted) {
        add(event.call, "start \(Self.describe(event.request))")
    }

    func attemptStarted(_ event: AttemptStarted) {
        add(event.call, "attempt \(event.call.attempt) \(Self.describe(event.request))")
    }

    func redirectFollowed(_ event: RedirectFollowed) {
        add(event.call, "redirect \(event.response.statusCode) \(event.request.url?.path ?? "?")")
    }

    func attemptFinished(_ event: AttemptFinished) {
        let sent = event.bytesSent.map(String.init) ?? "?"
        add(
            event.call,
            "attempt \(event.call.attempt) ended \(Self.describe(event.response, event.error)) sent \(sent) "
                + (event.bodyIsStreamed ? "body streamed" : "received \(event.bytesReceived)")
                + (event.duration >= 0 ? "" : " negative duration"))
    }

    func retryScheduled(_ event: RetryScheduled) {
        add(event.call, "retry \(event.call.attempt) after \(event.delay > 0 ? "a delay" : "none")")
    }

    func callFinished(_ event: CallFinished) {
        add(
            event.call,
            "end \(Self.describe(event.response, event.error))" + (event.bodyIsStreamed ? " body streamed" : "")
                + (event.duration >= 0 ? "" : " negative duration"))
    }

    func overloadDecision(_ event: OverloadDecision) {
        guard let call = event.call else {
            return box.withLock { $0.append((UUID(), "overload \(event.kind.rawValue) outside a call")) }
        }
        add(call, "overload \(event.kind.rawValue)")
    }
}
