import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Retries with exponential backoff: what a client of flaky services otherwise writes by hand.
///
/// By default: up to 3 attempts; idempotent methods only (`GET`, `HEAD`, `PUT`, `DELETE`,
/// `OPTIONS`, `TRACE`), and requests of any method that carry an `Idempotency-Key` (see
/// `URLRequest.carriesIdempotencyKey`); on 408, 429, 500, 502, 503, 504 and on transient
/// transport errors (connection lost, timed out, cannot connect); waiting 0.2 s, 0.4 s,
/// 0.8 s… (with up to 50 % taken off at random, so clients don't retry in step) and never more
/// than 30 s; or as long as the server's `Retry-After` says (seconds or an HTTP date), unless
/// that is longer than ``maximumRetryAfter``, in which case the call fails at once.
///
/// Give an endpoint its own policy to retry a `POST` it knows is safe:
/// `var retryPolicy: RetryPolicy? { .default.retryingAllMethods() }`.
public struct RetryPolicy: RequestRetrier, Equatable {
    /// The most attempts, the first included; 1 means no retries.
    public var maximumAttempts: Int
    /// The wait before the first retry, in seconds.
    public var initialDelay: TimeInterval
    /// How much each wait grows.
    public var multiplier: Double
    /// The longest wait between attempts, in seconds.
    public var maximumDelay: TimeInterval
    /// The share of each wait taken off at random, from 0 (none) to 1.
    public var jitter: Double
    /// The longest `Retry-After` honoured, in seconds; a longer one fails the call.
    public var maximumRetryAfter: TimeInterval
    /// The methods retried; `nil` retries every method. A request that carries an
    /// `Idempotency-Key` is retried whatever its method.
    public var methods: Set<HTTPMethod>?
    /// The statuses retried.
    public var statusCodes: Set<Int>
    /// The transport failures retried.
    public var errorCodes: Set<URLError.Code>

    /// Creates a policy; every parameter has the default described above.
    public init(
        maximumAttempts: Int = 3, initialDelay: TimeInterval = 0.2, multiplier: Double = 2,
        maximumDelay: TimeInterval = 30, jitter: Double = 0.5, maximumRetryAfter: TimeInterval = 60,
        methods: Set<HTTPMethod>? = [.get, .head, .put, .delete, .options, .trace],
        statusCodes: Set<Int> = [408, 429, 500, 502, 503, 504],
        errorCodes: Set<URLError.Code> = [.networkConnectionLost, .timedOut, .cannotConnectToHost]
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.maximumRetryAfter = maximumRetryAfter
        self.methods = methods
        self.statusCodes = statusCodes
        self.errorCodes = errorCodes
    }

    /// Three attempts with the defaults above.
    public static let `default` = RetryPolicy()
    /// No retries.
    public static let none = RetryPolicy(maximumAttempts: 1)

    /// This policy, retrying every method (for calls the server treats as idempotent).
    public func retryingAllMethods() -> RetryPolicy {
        var policy = self
        policy.methods = nil
        return policy
    }

    /// The wait before retry number `attempt` (1 for the first retry), before jitter.
    public func backoff(forAttempt attempt: Int) -> TimeInterval {
        min(maximumDelay, initialDelay * pow(multiplier, Double(max(0, attempt - 1))))
    }

    /// Retries what this policy covers; see the type's description.
    public func retry(_ request: URLRequest, response: HTTPURLResponse?, error: any Error, attempt: Int) async
        -> RetryDecision
    {
        guard attempt < maximumAttempts else { return .doNotRetry }
        if let methods, !methods.contains(HTTPMethod(request.httpMethod ?? "GET")), !request.carriesIdempotencyKey {
            return .doNotRetry
        }
        if let response, case EndpointKitError.unacceptableStatus = error {
            guard statusCodes.contains(response.statusCode) else { return .doNotRetry }
            if let wait = RetryAfter.seconds(response.value(forHTTPHeaderField: "Retry-After")) {
                return wait <= maximumRetryAfter ? .retry(after: wait) : .doNotRetry
            }
        } else if !isTransient(error) {
            return .doNotRetry
        }
        let wait = backoff(forAttempt: attempt)
        return .retry(after: wait - wait * jitter * Double.random(in: 0...1))
    }

    private func isTransient(_ error: any Error) -> Bool {
        switch error {
        case EndpointKitError.timedOut: errorCodes.contains(.timedOut)
        case EndpointKitError.transportFailed(_, let underlying as URLError): errorCodes.contains(underlying.code)
        default: false
        }
    }
}
