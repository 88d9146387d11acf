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
    private struct Route {
        let handler: TransferHandler
        /// What was last sent, so redirects can repeat its method and body.
        var outgoing: Outgoing
    }

    private struct State {
        var routes: [Int: Route] = [:]
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
    func cancel(_ task: URLSessionTask) {
        queue.addOperation { task.cancel() }
    }

    /// Creates the task that sends `outgoing` and routes its events to `handler`.
    /// - Throws: ``EndpointKitError/clientInvalidated`` once ``invalidate()`` has run.
    func register(_ handler: TransferHandler, for outgoing: Outgoing, in session: URLSession) throws -> URLSessionTask {
        try state.withLock { state in
            guard !state.isInvalidated else { throw EndpointKitError.clientInvalidated }
            let task = try outgoing.makeTask(in: session)
            state.routes[task.taskIdentifier] = Route(handler: handler, outgoing: outgoing)
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

    /// Refuses new tasks from now on; `false` if that had happened already.
    func invalidate() -> Bool {
        state.withLock { state in
            defer { state.isInvalidated = true }
            return !state.isInvalidated
        }
    }

    private func handler(for task: URLSessionTask) -> TransferHandler? {
        state.withLock { $0.routes[task.taskIdentifier]?.handler }
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

    func urlSession(
        _ session: URLSession, task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let next: URLRequest? = state.withLock { state in
            guard var route = state.routes[task.taskIdentifier], let url = request.url else { return nil }
            let next = Redirect.following(response, to: url, from: route.outgoing)
            // Foundation would send it without its body: decline, and the client replays it.
            if next.carriesBody { return nil }
            route.outgoing = next
            state.routes[task.taskIdentifier] = route
            return next.request
        }
        #if canImport(FoundationNetworking)
            completionHandler(next.map { Self.withCookies($0, setBy: response, in: session.configuration) })
        #else
            completionHandler(next)
        #endif
    }

    #if canImport(FoundationNetworking)
        /// Foundation on Linux sends a redirected request without cookies, even those the
        /// redirect itself just set (as a login's `302` does): they are added here, as on Darwin.
        private static func withCookies(
            _ request: URLRequest, setBy response: HTTPURLResponse, in configuration: URLSessionConfiguration
        ) -> URLRequest {
            guard let storage = configuration.httpCookieStorage, configuration.httpShouldSetCookies,
                request.httpShouldHandleCookies, request.value(forHTTPHeaderField: "Cookie") == nil,
                let url = request.url
            else { return request }
            if let origin = response.url {
                let fields = response.allHeaderFields.reduce(into: [String: String]()) { fields, field in
                    if let name = field.key as? String, let value = field.value as? String { fields[name] = value }
                }
                storage.setCookies(HTTPCookie.cookies(withResponseHeaderFields: fields, for: origin), for: origin, mainDocumentURL: nil)
            }
            var request = request
            for (name, value) in HTTPCookie.requestHeaderFields(with: storage.cookies(for: url) ?? []) {
                request.setValue(value, forHTTPHeaderField: name)
            }
            return request
        }
    #endif

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

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let route = state.withLock { $0.routes.removeValue(forKey: task.taskIdentifier) }
        route?.handler.didComplete(error: error)
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        let routes = state.withLock { state in
            state.isInvalidated = true
            defer { state.routes = [:] }
            return state.routes.values
        }
        for route in routes {
            route.handler.didComplete(error: error ?? EndpointKitError.clientInvalidated)
        }
    }
}
