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

    /// Sends an upload endpoint's body and calls `completionHandler` once with its content or
    /// error. The returned `Progress` counts bytes; `cancel()` on it cancels the call.
    @discardableResult
    func upload<T: UploadEndpoint>(
        _ endpoint: T,
        completionHandler: @escaping @Sendable (Result<T.Content, any Error>) -> Void
    ) -> Progress

    /// Sends an upload endpoint's body and returns its content; `progress` (if given) is called
    /// as bytes move, on a library thread, so keep it quick.
    func upload<T: UploadEndpoint>(
        _ endpoint: T, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> T.Content

    /// Downloads a download endpoint's body to a file and calls `completionHandler` once with
    /// its content or error. The returned `Progress` counts bytes; `cancel()` cancels the call.
    @discardableResult
    func download<T: DownloadEndpoint>(
        _ endpoint: T,
        completionHandler: @escaping @Sendable (Result<T.Content, any Error>) -> Void
    ) -> Progress

    /// Downloads a download endpoint's body to a file and returns its content; `progress` (if
    /// given) is called as bytes arrive, on a library thread, so keep it quick.
    func download<T: DownloadEndpoint>(
        _ endpoint: T, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> T.Content

    /// Sends `endpoint` and returns as soon as the response head has arrived and been
    /// validated; the body follows as a ``ResponseStream`` (chunks, ``ResponseStream/lines``,
    /// ``ResponseStream/events``). Leaving the loop or cancelling the task cancels the request.
    func stream<T: Endpoint>(_ endpoint: T) async throws -> ResponseStream

    /// Sends `endpoint`'s body as ``upload(_:progress:)`` does (a ``ProducedBody`` as it is
    /// produced, with the AsyncHTTPClient-backed client) and returns once the response head has
    /// arrived and been validated; the body follows as a ``ResponseStream``.
    ///
    /// The default implementation throws ``EndpointKitError/invalidRequest(endpoint:underlying:)``.
    func stream<T: UploadEndpoint>(_ endpoint: T) async throws -> ResponseStream

    /// Opens a WebSocket: the handshake goes through the client's request adapters, and
    /// returns once the server has accepted it (a refusal throws
    /// ``EndpointKitError/unacceptableStatus(_:)``). Cancelling the task cancels the handshake.
    ///
    /// The default implementation throws ``EndpointKitError/webSocketUnsupported(url:reason:)``.
    func webSocket<T: WebSocketEndpoint>(_ endpoint: T) async throws -> WebSocket

    /// Stops the client, so code written against `any Client` can clean up: later calls fail
    /// with ``EndpointKitError/clientInvalidated``. Calling it again does nothing.
    ///
    /// ``URLSessionClient`` lets the calls in flight finish and returns at once; the
    /// AsyncHTTPClient-backed client shuts down the `HTTPClient` it owns. The default
    /// implementation does nothing, for clients that hold nothing to release.
    func shutdown() async throws
}

extension Client {
    /// Does nothing: this client holds nothing to release.
    public func shutdown() async throws {}

    /// Throws ``EndpointKitError/invalidRequest(endpoint:underlying:)``: this client streams
    /// no uploads.
    public func stream<T: UploadEndpoint>(_ endpoint: T) async throws -> ResponseStream {
        throw EndpointKitError.invalidRequest(
            endpoint: String(describing: T.self),
            underlying: CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "\(type(of: self)) does not stream uploads"]))
    }

    /// Throws ``EndpointKitError/webSocketUnsupported(url:reason:)``: this client opens no WebSockets.
    public func webSocket<T: WebSocketEndpoint>(_ endpoint: T) async throws -> WebSocket {
        throw EndpointKitError.webSocketUnsupported(
            url: try? endpoint.makeRequest().url, reason: "\(type(of: self)) does not implement WebSockets")
    }

    /// Server-Sent Events from `endpoint`, reconnecting (with `Last-Event-ID`, after the
    /// server's `retry` time, 3 s by default) when the stream ends or the connection breaks or
    /// times out, unless `reconnect` is `false` (or a ``CallDeadline`` would pass meanwhile);
    /// after connections that fail in a row (that cannot connect, or break before their first
    /// event), the wait doubles, up to 30 s. A 204 answer ends the sequence (the server's "no
    /// more"); a non-2xx answer ends it with its error, and one that is not `text/event-stream` with
    /// ``EndpointKitError/decodingFailed(_:)`` (neither is asked again);
    /// cancelling the iterating task, or leaving the loop, closes the connection.
    public func events<T: Endpoint>(_ endpoint: T, reconnect: Bool = true) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        EventSource.events(from: self, endpoint: endpoint, reconnect: reconnect)
    }

    /// Sends an upload endpoint's body and returns its content.
    public func upload<T: UploadEndpoint>(_ endpoint: T) async throws -> T.Content {
        try await upload(endpoint, progress: nil)
    }

    /// Downloads a download endpoint's body to a file and returns its content.
    public func download<T: DownloadEndpoint>(_ endpoint: T) async throws -> T.Content {
        try await download(endpoint, progress: nil)
    }
}
