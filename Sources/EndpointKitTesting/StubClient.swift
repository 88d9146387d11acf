@_spi(Locking) @_spi(Transport) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``EndpointKit/Client`` for tests: answers from stubs instead of the network, and records
/// every call. Both APIs work, including cancellation (`Progress.cancel()`, `Task.cancel()`).
///
/// ```swift
/// let client = StubClient()
/// client.stub(ListBooksEndpoint.self) { _ in [Book(id: 1, title: "Dune", author: "Frank Herbert")] }
/// client.stub(GetBookEndpoint.self, error: APIError(status: 404, error: "no book"), delay: 0.1)
/// let service = BookServiceClient(client: client)
/// XCTAssertEqual(try await service.fetchBooks().count, 1)
/// XCTAssertEqual(client.calls.count, 1)
/// ```
///
/// A call with no stub fails with ``StubClient/Unstubbed``, naming the endpoint. Later stubs win
/// over earlier ones; stubs that match requests (``stub(matching:answer:)``) are tried first.
public final class StubClient: Client, Sendable {
    /// A call the client received.
    public struct Call: Sendable {
        /// The endpoint value.
        public let endpoint: any Sendable
        /// The endpoint's type name, such as `GetBookEndpoint`.
        public let endpointType: String
        /// The request the endpoint built, if it built one.
        public let request: URLRequest?
    }

    /// The error for a call nothing was stubbed for.
    public struct Unstubbed: Error, CustomStringConvertible {
        /// The endpoint's type name.
        public let endpoint: String
        /// Says what to stub.
        public var description: String { "StubClient has no stub for \(endpoint); call stub(\(endpoint).self) first" }
    }

    /// What a stub answers.
    struct Answer: Sendable {
        let matches: @Sendable (any Sendable, URLRequest?) -> Bool
        let respond: @Sendable (any Sendable, URLRequest?) throws -> any Sendable
        let delay: TimeInterval
        var progress: [TransferProgress] = []
    }

    private struct Stubs {
        var answers: [Answer] = []
        var calls: [Call] = []
        var shutdowns = 0
    }

    private let state = Locked(Stubs())

    /// The queue completion handlers run on.
    public let completionQueue: DispatchQueue

    /// Creates a client with no stubs.
    public init(completionQueue: DispatchQueue = DispatchQueue(label: "EndpointKitTesting.StubClient")) {
        self.completionQueue = completionQueue
    }

    /// How many times ``shutdown()`` was called.
    public var shutdownCount: Int { state.withLock { $0.shutdowns } }

    /// Records the shutdown (see ``shutdownCount``); calls made later still answer from the
    /// stubs, so a test can check what the code under test does after it.
    public func shutdown() async throws {
        state.withLock { $0.shutdowns += 1 }
    }

    /// Every call received so far, in order.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// The endpoints of type `T` received so far, in order.
    public func calls<T: Sendable>(to type: T.Type) -> [T] {
        calls.compactMap { $0.endpoint as? T }
    }

    /// Answers every call to an endpoint of type `T` with `answer` (which may throw), after
    /// `delay` seconds. An upload or download reports `progress` first (spread over the delay),
    /// to its progress handler or to the `Progress` the completion API returns.
    public func stub<T: Sendable, Content: Sendable>(
        _ type: T.Type, delay: TimeInterval = 0, progress: [TransferProgress] = [],
        answer: @escaping @Sendable (T) throws -> Content
    ) {
        add(Answer(
            matches: { endpoint, _ in endpoint is T },
            respond: { endpoint, _ in
                guard let endpoint = endpoint as? T else { throw Unstubbed(endpoint: "\(T.self)") }
                return try answer(endpoint)
            }, delay: delay, progress: progress))
    }

    /// Fails every call to an endpoint of type `T` with `error`, after `delay` seconds.
    public func stub<T: Sendable>(_ type: T.Type, error: any Error, delay: TimeInterval = 0) {
        add(Answer(matches: { endpoint, _ in endpoint is T }, respond: { _, _ in throw error }, delay: delay))
    }

    /// Answers every call whose built request satisfies `predicate` (any endpoint type).
    public func stub<Content: Sendable>(
        matching predicate: @escaping @Sendable (URLRequest) -> Bool, delay: TimeInterval = 0,
        answer: @escaping @Sendable (URLRequest) throws -> Content
    ) {
        add(Answer(
            matches: { _, request in request.map(predicate) ?? false },
            respond: { _, request in
                guard let request else { throw Unstubbed(endpoint: "request") }
                return try answer(request)
            }, delay: delay))
    }

    private func add(_ answer: Answer) {
        state.withLock { $0.answers.insert(answer, at: 0) }
    }

    /// Finds the stub for `endpoint`, records the call, waits its delay, and answers.
    private func answer<Content: Sendable>(
        _ endpoint: any Sendable, request: URLRequest?, report: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Content {
        let type = String(describing: Swift.type(of: endpoint))
        let found = state.withLock { state -> Answer? in
            state.calls.append(Call(endpoint: endpoint, endpointType: type, request: request))
            return state.answers.first { $0.matches(endpoint, request) }
        }
        guard let found else { throw Unstubbed(endpoint: type) }
        let pause = (found.delay / Double(found.progress.count + 1)).nanoseconds
        let cancellation = ProgressCancellation()
        for event in found.progress {
            if pause > 0 { try await Task.sleep(nanoseconds: pause) }
            try Task.checkCancellation()
            report?(event.cancelling(with: cancellation))
            if cancellation.isRequested { throw CancellationError() }
        }
        if pause > 0 { try await Task.sleep(nanoseconds: pause) }
        try Task.checkCancellation()
        let value = try found.respond(endpoint, request)
        guard let content = value as? Content else {
            throw StubTypeMismatch(endpoint: type, expected: "\(Content.self)", got: "\(Swift.type(of: value))")
        }
        return content
    }

    private func complete<Content: Sendable>(
        _ handler: @escaping @Sendable (Result<Content, any Error>) -> Void,
        _ work: @escaping @Sendable (@escaping @Sendable (TransferProgress) -> Void) async throws -> Content
    ) -> Progress {
        let progress = Progress.discreteProgress(totalUnitCount: 1)
        let task = Task {
            let result: Result<Content, any Error>
            do {
                result = .success(
                    try await work { event in
                        let total = max(event.totalBytes ?? event.completedBytes, event.completedBytes, 1)
                        if total > progress.totalUnitCount { progress.totalUnitCount = total }
                        progress.completedUnitCount = event.completedBytes
                    })
            } catch {
                result = .failure(error)
            }
            progress.completedUnitCount = progress.totalUnitCount
            completionQueue.async { handler(result) }
        }
        progress.cancellationHandler = { task.cancel() }
        return progress
    }

    /// Answers from the stubs.
    @discardableResult
    public func request<T: Endpoint>(
        _ endpoint: T, completionHandler: @escaping @Sendable (Result<T.Content, any Error>) -> Void
    ) -> Progress {
        complete(completionHandler) { _ in try await self.request(endpoint) }
    }

    /// Answers from the stubs.
    public func request<T: Endpoint>(_ endpoint: T) async throws -> T.Content {
        try await answer(endpoint, request: try? endpoint.makeRequest())
    }

    /// Answers from the stubs.
    @discardableResult
    public func upload<T: UploadEndpoint>(
        _ endpoint: T, completionHandler: @escaping @Sendable (Result<T.Content, any Error>) -> Void
    ) -> Progress {
        complete(completionHandler) { try await self.upload(endpoint, progress: $0) }
    }

    /// Answers from the stubs, reporting the stub's progress, or else the body's size (when
    /// known) as sent.
    public func upload<T: UploadEndpoint>(
        _ endpoint: T, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> T.Content {
        let made = try? endpoint.makeRequest()
        let content: T.Content = try await answer(endpoint, request: made?.0, report: progress)
        if case .data(let data)? = made?.1, !stubsProgress(for: endpoint) {
            progress?(TransferProgress(direction: .upload, completedBytes: Int64(data.count), totalBytes: Int64(data.count)))
        }
        return content
    }

    /// Answers from the stubs.
    @discardableResult
    public func download<T: DownloadEndpoint>(
        _ endpoint: T, completionHandler: @escaping @Sendable (Result<T.Content, any Error>) -> Void
    ) -> Progress {
        complete(completionHandler) { try await self.download(endpoint, progress: $0) }
    }

    /// Answers from the stubs, reporting the stub's progress.
    public func download<T: DownloadEndpoint>(
        _ endpoint: T, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> T.Content {
        try await answer(endpoint, request: try? endpoint.makeRequest(), report: progress)
    }

    /// Whether the stub for `endpoint` reports progress of its own.
    private func stubsProgress(for endpoint: any Sendable) -> Bool {
        state.withLock { state in
            state.answers.first { $0.matches(endpoint, nil) }.map { !$0.progress.isEmpty } ?? false
        }
    }

    /// Answers with a stubbed ``EndpointKit/ResponseStream`` (stub the endpoint's type with one).
    public func stream<T: Endpoint>(_ endpoint: T) async throws -> ResponseStream {
        try await answer(endpoint, request: try? endpoint.makeRequest())
    }

    /// Answers with a stubbed ``EndpointKit/ResponseStream`` (stub the endpoint's type with one).
    public func stream<T: UploadEndpoint>(_ endpoint: T) async throws -> ResponseStream {
        try await answer(endpoint, request: try? endpoint.makeRequest().0)
    }
}

/// A stub answered with a value of another type than the call expects.
public struct StubTypeMismatch: Error, CustomStringConvertible {
    /// The endpoint's type name.
    public let endpoint: String
    /// The content type the call expects.
    public let expected: String
    /// The type the stub answered with.
    public let got: String
    /// Says what went wrong.
    public var description: String { "The stub for \(endpoint) answered \(got), but the call expects \(expected)" }
}
