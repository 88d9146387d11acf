import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one delegate of a client's `URLSession`. It routes every task's events to the handler
/// registered for that task, because on Linux per-task delegates miss callbacks.
///
/// It also owns the client's "invalidated" flag: tasks are created under the same lock that
/// sets it, so no task is ever created on an invalidated session (which kills the process on
/// Linux).
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var routes: [Int: TransferHandler] = [:]
        var isInvalidated = false
    }

    private let state = Locked(State())

    /// The session's delegate queue: serial, and the only place tasks are cancelled.
    let queue: OperationQueue

    override init() {
        queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "EndpointKit.session-delegate"
        super.init()
    }

    /// Cancels `task` on the delegate queue, never on the calling thread.
    ///
    /// Foundation on Linux has two hazards here. `cancel()` called from a thread that holds a
    /// Swift task's lock (a cancellation handler) can deadlock, as `data(for:)` does. And a
    /// `cancel()` that lands while the task's completion is being delivered on the delegate
    /// queue finds the task gone from the session's registry and crashes the process
    /// (`TaskRegistry.swift: Trying to access a behaviour for a task that in not in the
    /// registry`). Completion is delivered in one operation on this serial queue, so a cancel
    /// enqueued here runs wholly before it or wholly after it (when `cancel()` does nothing).
    /// Foundation's own `invalidateAndCancel()` cancels from the calling thread; the client does
    /// not use it.
    func cancel(_ task: URLSessionTask) {
        queue.addOperation { task.cancel() }
    }

    /// Creates the task that sends `outgoing` and routes its events to `handler`.
    /// - Throws: ``EndpointKitError/clientInvalidated`` once ``invalidate()`` has run.
    func register(_ handler: TransferHandler, for outgoing: Outgoing, in session: URLSession) throws -> URLSessionTask {
        try state.withLock { state in
            guard !state.isInvalidated else { throw EndpointKitError.clientInvalidated }
            let task = try outgoing.makeTask(in: session)
            state.routes[task.taskIdentifier] = handler
            return task
        }
    }

    /// Creates a WebSocket task for `request`. Its events come through its own callbacks, not
    /// through a route.
    /// - Throws: ``EndpointKitError/clientInvalidated`` once ``invalidate()`` has run.
    func makeWebSocketTask(with request: URLRequest, in session: URLSession) throws -> URLSessionWebSocketTask {
        try state.withLock { state in
            guard !state.isInvalidated else { throw EndpointKitError.clientInvalidated }
            return session.webSocketTask(with: request)
        }
    }

    /// Closes a WebSocket task on the delegate queue, for the reasons ``cancel(_:)`` gives.
    func close(_ task: URLSessionWebSocketTask, code: WebSocketCloseCode, reason: String) {
        let code = URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .normalClosure
        queue.addOperation { task.cancel(with: code, reason: Data(reason.utf8)) }
    }

    /// How many tasks are routed now: zero once every call has ended.
    var activeTaskCount: Int { state.withLock { $0.routes.count } }

    /// Stops routing events for `task` (one that was never resumed).
    func unregister(_ task: URLSessionTask) {
        _ = state.withLock { $0.routes.removeValue(forKey: task.taskIdentifier) }
    }

    /// Whether it still creates tasks.
    var isOpen: Bool { state.withLock { !$0.isInvalidated } }

    /// Refuses new tasks from now on; `false` if that had happened already.
    func invalidate() -> Bool {
        state.withLock { state in
            defer { state.isInvalidated = true }
            return !state.isInvalidated
        }
    }

    private func handler(for task: URLSessionTask) -> TransferHandler? {
        state.withLock { $0.routes[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        completionHandler(handler(for: dataTask)?.didReceive(response: response) ?? .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        handler(for: dataTask)?.didReceive(data: data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        handler(for: task)?.didSend(
            totalBytesSent: totalBytesSent, totalBytesExpectedToSend: totalBytesExpectedToSend)
    }

    /// Declines every redirect: the pipeline follows it (see ``Redirect``), so the call gets
    /// the 3xx response as its answer here.
    func urlSession(
        _ session: URLSession, task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// Foundation on Linux asks this after a 401 whose `WWW-Authenticate` names a realm (as
    /// `Basic realm="api"` and many `Bearer` challenges do), and then, with no credential to
    /// send, waits forever whatever the answer. The 401 has wholly arrived by then: the call ends
    /// with it, and the task is cancelled. Credentials belong in request adapters.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
            if handler(for: task)?.endAtChallenge() == true {
                return completionHandler(.cancelAuthenticationChallenge, nil)
            }
        #endif
        completionHandler(.performDefaultHandling, nil)
    }

    /// Foundation on Linux never hands over the head of a 301, 302, 303, 307 or 308 that has no
    /// `Location` (nor its body): the task's own `response` is then the answer.
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let handler = state.withLock { $0.routes.removeValue(forKey: task.taskIdentifier) }
        handler?.didComplete(error: error, unreported: task.response as? HTTPURLResponse)
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        let handlers = state.withLock { state in
            state.isInvalidated = true
            defer { state.routes = [:] }
            return state.routes.values
        }
        for handler in handlers {
            handler.didComplete(error: error ?? EndpointKitError.clientInvalidated)
        }
    }
}
