import Foundation

/// Which call this is: an identity and a start time that request adapters, retriers and the
/// response observer can read while the call runs, to log, measure or trace it without
/// smuggling an ID through a header.
///
/// Every call through a client built on EndpointKit's pipeline (requests, uploads, downloads,
/// streams, WebSocket handshakes; with either API) runs with its context in
/// ``CallContext/current``:
///
/// ```swift
/// let client = URLSessionClient(baseURL: api, responseObserver: { request, response, _, error in
///     guard let call = CallContext.current else { return }
///     print(call.id, call.endpoint, call.attempt, response?.statusCode ?? 0, call.elapsed)
/// })
/// ```
public struct CallContext: Sendable {
    /// The call's identity: the same for all its attempts and redirects, new for every call.
    public let id: UUID
    /// When the call started (before its request was built).
    public let startedAt: Date
    /// Which attempt is running: 1 for the first, 2 for the first retry, and so on.
    public let attempt: Int
    /// The endpoint's type; see ``endpoint``.
    public let endpointType: any Any.Type
    /// The time by which the call must be done: ``CallDeadline/current`` when it started, or
    /// `nil` for none.
    public let deadline: CallDeadline?

    /// Seconds left until the call's ``deadline`` (0 once it has passed), or `nil` for none.
    public var remainingTime: TimeInterval? { deadline?.remaining }

    /// The name the call goes by: the endpoint's ``EndpointSettings/callName`` (an OpenAPI
    /// operation ID, say), or else its type name, such as `GetBookEndpoint`.
    public var endpoint: String { callName ?? String(describing: endpointType) }

    /// The endpoint's own name for its calls (``EndpointSettings/callName``), or `nil`.
    public let callName: String?

    /// Seconds since the call started, on a clock that never jumps.
    public var elapsed: TimeInterval { Self.seconds(since: uptime) }

    /// When the call started, in nanoseconds of uptime (a clock that never jumps).
    let uptime: UInt64

    /// The context of the call the current task is running, or `nil` outside a call.
    @TaskLocal public static var current: CallContext?

    /// A new call of `endpointType`, at its first attempt.
    init(endpointType: any Any.Type, callName: String? = nil) {
        self.init(
            id: Self.nextID(), startedAt: Date(), attempt: 1, endpointType: endpointType, uptime: Self.now,
            deadline: CallDeadline.current, callName: callName)
    }

    /// A context for tests of code that reads ``current`` (bind it with
    /// `CallContext.$current.withValue(_:operation:)`).
    public init(
        id: UUID, startedAt: Date, attempt: Int, endpointType: any Any.Type, deadline: CallDeadline? = nil, callName: String? = nil
    ) {
        self.init(
            id: id, startedAt: startedAt, attempt: attempt, endpointType: endpointType, uptime: Self.now, deadline: deadline,
            callName: callName)
    }

    private init(
        id: UUID, startedAt: Date, attempt: Int, endpointType: any Any.Type, uptime: UInt64, deadline: CallDeadline?,
        callName: String?
    ) {
        self.id = id
        self.startedAt = startedAt
        self.attempt = attempt
        self.endpointType = endpointType
        self.uptime = uptime
        self.deadline = deadline
        self.callName = callName
    }

    /// The same call at attempt `attempt`.
    func at(attempt: Int) -> CallContext {
        CallContext(
            id: id, startedAt: startedAt, attempt: attempt, endpointType: endpointType, uptime: uptime, deadline: deadline,
            callName: callName)
    }

    /// Now, in nanoseconds of uptime.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Seconds from `uptime` to now.
    static func seconds(since uptime: UInt64) -> TimeInterval {
        Double(now - min(uptime, now)) / 1e9
    }
}
