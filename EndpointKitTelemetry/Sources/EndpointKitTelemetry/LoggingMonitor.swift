import EndpointKit
import Foundation
import Logging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Logs every call to a swift-log `Logger`: one line per call, with metadata (call id, method,
/// URL without query values or credentials, status, attempts, duration, bytes, error).
///
/// Levels: a call that succeeded logs at `.debug`, so a healthy service is quiet at `.info`; a
/// retried attempt at `.notice`; a call refused with a 4xx at `.warning`; a 5xx, a transport
/// failure, a timeout or a decoding failure at `.error`; a cancelled call at `.debug`.
///
/// What is never written: a URL's credentials (`REDACTED:REDACTED@`) and query values
/// (`REDACTED`), as `URL.redactedDescription` puts them; the values of
/// `Authorization`, `Cookie`, `Set-Cookie`, `Proxy-Authorization`, `X-Api-Key`,
/// `Sec-WebSocket-Protocol` (where Kubernetes, for one, carries a bearer token) and
/// `redactedHeaders` (`REDACTED`); and any body byte unless `logsBodies` is on. The `error` metadata is the
/// error's description, which for ``EndpointKitError`` names no secret and no body byte (an
/// error your own `validate` or `content` throws is written as it describes itself).
///
/// With `logsBodies`, a second line at `.trace` carries both heads and bodies: the metadata
/// `request.headers`, `request.body`, `response.headers` and `response.body`, each body cut to
/// its first `bodyLimit` bytes (1,024 by default) and then marked `… (N bytes)` with its whole
/// size. For a redirected call, `url.full` names the last request sent, the one whose answer
/// the status is, as ``TracingMonitor`` does.
public struct LoggingMonitor: CallMonitor {
    /// Where lines go.
    public let logger: Logger
    /// Whether heads and bodies are logged (at `.trace`).
    public let logsBodies: Bool
    /// The most bytes of each body logged.
    public let bodyLimit: Int
    /// Header fields never logged, lowercased.
    public let redactedHeaders: Set<String>

    /// Creates a monitor that logs to `logger`.
    public init(logger: Logger, logsBodies: Bool = false, bodyLimit: Int = 1024, redactedHeaders: Set<String> = []) {
        self.logger = logger
        self.logsBodies = logsBodies
        self.bodyLimit = bodyLimit
        self.redactedHeaders = Set(Self.alwaysRedacted + redactedHeaders.map { $0.lowercased() })
    }

    /// The header fields whose values are never logged, whatever `redactedHeaders` adds.
    static let alwaysRedacted = ["authorization", "cookie", "set-cookie", "proxy-authorization", "x-api-key", "sec-websocket-protocol"]

    /// Logs the failed attempt that will be sent again.
    public func retryScheduled(_ event: RetryScheduled) {
        var metadata = Self.metadata(event.call, event.request, event.response)
        // Any wait a retrier asks for, even one too long for an Int of milliseconds.
        metadata["retry.delay_ms"] = .stringConvertible(Int(exactly: (event.delay * 1000).rounded(.down)) ?? .max)
        metadata["error"] = .string(String(describing: event.reason))
        logger.notice("\(Self.line(event.request, event.response, event.reason)); retrying", metadata: metadata)
    }

    /// Logs what the client's overload policy decided: at `.warning` when a circuit opens,
    /// `.notice` when a call or retry is refused, `.info` when a circuit closes, `.debug` for a
    /// wait in a queue, a hedge or a probe.
    public func overloadDecision(_ event: OverloadDecision) {
        let level: Logger.Level =
            switch event.kind {
            case .circuitOpened: .warning
            case .retryRefused, .retryPastDeadline, .circuitRejected, .queueFull, .hedgeRefused: .notice
            case .circuitClosed: .info
            case .queued, .hedged, .circuitProbe: .debug
            }
        guard logger.logLevel <= level else { return }
        let server = HTTPConventions.server(event.host)
        var metadata: Logger.Metadata = [
            "overload.decision": .string(event.kind.rawValue), "server.address": .string(server.address),
            "server.port": .string(server.port),
        ]
        if let call = event.call {
            metadata["call.id"] = .stringConvertible(call.id)
            metadata["call.endpoint"] = .stringConvertible(EndpointName(call: call))
            metadata["call.attempt"] = .stringConvertible(call.attempt)
        }
        if let seconds = event.seconds { metadata["overload.seconds"] = .stringConvertible((seconds * 1000).rounded() / 1000) }
        logger.log(level: level, "\(Self.sentence(event.kind)) (\(event.host))", metadata: metadata)
    }

    private static func sentence(_ kind: OverloadDecision.Kind) -> String {
        switch kind {
        case .retryRefused: "Retry not sent: the retry budget is spent"
        case .retryPastDeadline: "Retry not sent: it could not end before the call's deadline"
        case .circuitRejected: "Call not sent: the circuit is open"
        case .circuitOpened: "Circuit opened after repeated failures"
        case .circuitProbe: "Call sent as a probe of a half-open circuit"
        case .circuitClosed: "Circuit closed: the host answers again"
        case .queued: "Call waited for the host's concurrency limit"
        case .queueFull: "Call not sent: the host's queue is full"
        case .hedged: "Second attempt sent: the first is late"
        case .hedgeRefused: "Hedge not sent: the retry budget is spent"
        }
    }

    /// Logs the call's outcome.
    public func callFinished(_ event: CallFinished) {
        let level = Self.level(event.response?.statusCode, event.error)
        guard logger.logLevel <= level || (logsBodies && logger.logLevel <= .trace) else { return }
        var metadata = Self.metadata(event.call, event.request, event.response)
        metadata["duration_ms"] = .stringConvertible((event.duration * 10_000).rounded() / 10)
        metadata["bytes.sent"] = .stringConvertible(event.bytesSent ?? 0)
        // A streamed body is read after this line: its size is not known here.
        if !event.bodyIsStreamed { metadata["bytes.received"] = .stringConvertible(event.bytesReceived) }
        if let cache = event.cache { metadata["cache"] = .string(cache.description) }
        if let error = event.error { metadata["error"] = .string(String(describing: error)) }
        logger.log(level: level, "\(Self.line(event.request, event.response, event.error))", metadata: metadata)
        if logsBodies {
            var details = metadata
            details["request.headers"] = .string(headers(event.request?.allHTTPHeaderFields ?? [:]))
            details["request.body"] = .string(body(event.request?.httpBody))
            let responseHeaders = event.response?.allHeaderFields.reduce(into: [String: String]()) { fields, field in
                if let name = field.key as? String { fields[name] = "\(field.value)" }
            }
            details["response.headers"] = .string(headers(responseHeaders ?? [:]))
            details["response.body"] = .string(body(event.body))
            logger.trace("\(Self.line(event.request, event.response, event.error)): heads and bodies", metadata: details)
        }
    }

    /// `GET https://host/path?q=REDACTED → 200` (or the error's short form).
    private static func line(_ request: URLRequest?, _ response: HTTPURLResponse?, _ error: (any Error)?) -> String {
        let target = "\(request?.httpMethod ?? "GET") \(HTTPConventions.redacted(request?.url))"
        if let response { return "\(target) → \(response.statusCode)" }
        return "\(target) → \(error.map { HTTPConventions.errorType($0, status: nil) ?? "error" } ?? "no response")"
    }

    private static func metadata(_ call: CallContext, _ request: URLRequest?, _ response: HTTPURLResponse?) -> Logger.Metadata {
        let method = HTTPConventions.method(request)
        var metadata: Logger.Metadata = [
            "call.id": .stringConvertible(call.id), "call.endpoint": .stringConvertible(EndpointName(call: call)),
            "call.attempt": .stringConvertible(call.attempt),
            "http.request.method": .string(method.name), "url.full": .string(HTTPConventions.redacted(request?.url)),
        ]
        if let original = method.original { metadata["http.request.method_original"] = .string(original) }
        if let response { metadata["http.response.status_code"] = .stringConvertible(response.statusCode) }
        return metadata
    }

    private static func level(_ status: Int?, _ error: (any Error)?) -> Logger.Level {
        if error is CancellationError { return .debug }
        if let status, (400..<500).contains(status) { return .warning }
        if let status, status >= 500 { return .error }
        return error == nil ? .debug : .error
    }

    private func headers(_ fields: [String: String]) -> String {
        fields.sorted { $0.key.lowercased() < $1.key.lowercased() }
            .map { "\($0.key): \(redactedHeaders.contains($0.key.lowercased()) ? "REDACTED" : $0.value)" }
            .joined(separator: "; ")
    }

    private func body(_ data: Data?) -> String {
        guard let data, !data.isEmpty else { return "" }
        let prefix = data.prefix(bodyLimit)
        // A cut may end inside a character: drop up to three bytes of it from the end.
        let text = (0...min(3, prefix.count)).lazy.compactMap { String(data: prefix.dropLast($0), encoding: .utf8) }.first
        guard let text else { return "<\(data.count) bytes of binary data>" }
        return data.count > bodyLimit ? text + "… (\(data.count) bytes)" : text
    }
}
