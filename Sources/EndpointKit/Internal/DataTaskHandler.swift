import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One call's data task: gathers the response and body, and resumes the caller exactly once.
final class DataTaskHandler: TaskHandler {
    typealias Completion = @Sendable (Result<(HTTPURLResponse, Data), any Error>) -> Void

    private struct State {
        var lifecycle = TaskLifecycle()
        var completion: Completion?
        var response: URLResponse?
        var body = Data()
    }

    private let state = Locked(State())
    private let url: URL?
    private let delegate: SessionDelegate

    init(url: URL?, delegate: SessionDelegate) {
        self.url = url
        self.delegate = delegate
    }

    /// Sets the completion before the task exists, so a cancel that arrives first is reported.
    func onCompletion(_ completion: @escaping Completion) {
        state.withLock { $0.completion = completion }
    }

    /// Records the task; `false` (and the call is finished as cancelled) if it was cancelled first.
    func start(_ task: URLSessionTask) -> Bool {
        let started = state.withLock { $0.lifecycle.start(task) }
        if !started { finish(.failure(CancellationError())) }
        return started
    }

    /// Cancels the call; safe from any thread, at any time, any number of times.
    func cancel() {
        if let task = state.withLock({ $0.lifecycle.cancel() }) {
            delegate.cancel(task)
        }
    }

    /// Ends the call with `result` unless it ended already.
    func finish(_ result: Result<(HTTPURLResponse, Data), any Error>) {
        let (completion, cancelled): (Completion?, Bool) = state.withLock { state in
            guard state.lifecycle.finish() else { return (nil, false) }
            defer { state.completion = nil }
            return (state.completion, state.lifecycle.isCancelled)
        }
        completion?(cancelled ? .failure(CancellationError()) : result)
    }

    func didReceive(response: URLResponse) -> URLSession.ResponseDisposition {
        state.withLock {
            $0.response = response
            $0.body = Data()
        }
        return .allow
    }

    func didReceive(data: Data) {
        state.withLock { $0.body.append(data) }
    }

    func didComplete(error: (any Error)?) {
        let (response, body) = state.withLock { state in
            defer { state.body = Data() }
            return (state.response, state.body)
        }
        if let error {
            finish(.failure(EndpointKitError.transportFailed(url: url, underlying: error)))
        } else if let http = response as? HTTPURLResponse {
            finish(.success((http, body)))
        } else {
            finish(.failure(EndpointKitError.invalidResponse(url: url)))
        }
    }
}
