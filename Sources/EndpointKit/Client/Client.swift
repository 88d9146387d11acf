import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs ``Endpoint``s. Every call is offered two ways: with a completion handler (returning a
/// `Progress` whose `cancel()` cancels the call) and with `async`/`await` (cancel the `Task`).
///
/// ``URLSessionClient`` is the implementation built on Foundation's `URLSession`.
public protocol Client: AnyObject, Sendable {
    /// Runs `endpoint` and calls `completionHandler` once with its content or error.
    ///
    /// - Returns: A `Progress` for the call; `cancel()` on it cancels the call, which then
    ///   completes with `.failure(CancellationError())`.
    @discardableResult
    func request<T: Endpoint>(
        _ endpoint: T,
        completionHandler: @escaping @Sendable (Result<T.Content, any Error>) -> Void
    ) -> Progress

    /// Runs `endpoint` and returns its content. Cancelling the calling `Task` cancels the request
    /// and throws `CancellationError`.
    func request<T: Endpoint>(_ endpoint: T) async throws -> T.Content
}
