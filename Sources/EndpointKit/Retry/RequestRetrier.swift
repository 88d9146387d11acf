import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Decides whether a failed attempt is sent again, and when.
///
/// The client asks, in order: every request adapter that is also a retrier (such as
/// ``AuthenticatingAdapter``), then the retry policy (the endpoint's, else the client's). The
/// first that answers ``RetryDecision/retry(after:)`` wins. Throwing fails the call with that
/// error (a failed credential refresh, say).
public protocol RequestRetrier: Sendable {
    /// - Parameters:
    ///   - request: The attempt's request as sent.
    ///   - response: The response, if the server answered.
    ///   - error: Why the attempt failed.
    ///   - attempt: Which attempt failed, counting from 1.
    func retry(_ request: URLRequest, response: HTTPURLResponse?, error: any Error, attempt: Int) async throws
        -> RetryDecision
}

/// A retrier's answer.
public enum RetryDecision: Sendable, Equatable {
    /// Fail the call with the attempt's error.
    case doNotRetry
    /// Send the request again after this many seconds.
    case retry(after: TimeInterval)
}
