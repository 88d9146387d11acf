@_exported import EndpointKitAsyncHTTPClient
@_exported import ServiceLifecycle

/// An `AsyncHTTPClientClient` as a swift-service-lifecycle `Service`: it runs until its
/// `ServiceGroup` shuts down, then stops the client gracefully. New calls fail with
/// `EndpointKitError.clientInvalidated` at once, calls in flight may finish within the grace
/// period, and the client's own `HTTPClient` is shut down (nothing is left running).
///
/// A group shuts its services down in the reverse of their order, so list the client before
/// the services that call through it: they stop first, while the client still answers them.
///
/// ```swift
/// let books = AsyncHTTPClientClient(baseURL: api)
/// let group = ServiceGroup(
///     services: [ClientService(books, gracePeriod: .seconds(10)), server],
///     gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
public struct ClientService: Service {
    /// The client this service stops.
    public let client: AsyncHTTPClientClient
    /// How long calls in flight may take to finish once shutdown begins.
    public let gracePeriod: Duration

    /// A service that stops `client` when its group shuts down, letting calls in flight finish
    /// within `gracePeriod` (10 s by default).
    public init(_ client: AsyncHTTPClientClient, gracePeriod: Duration = .seconds(10)) {
        self.client = client
        self.gracePeriod = gracePeriod
    }

    /// Waits for the group's graceful shutdown, then stops the client within the grace
    /// period; if the task is cancelled instead (the group ends at once), stops it at once.
    public func run() async throws {
        do {
            try await gracefulShutdown()
            try await client.shutdown(gracePeriod: gracePeriod)
        } catch is CancellationError {
            try await client.shutdown(gracePeriod: .zero)
        }
    }
}
