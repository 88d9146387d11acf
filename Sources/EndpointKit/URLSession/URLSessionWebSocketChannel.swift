import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A WebSocket over Foundation's `URLSessionWebSocketTask`, driven by its callbacks: one
/// `receive` at a time, and the next one only when the inbox has room.
///
/// Foundation on Linux has no WebSocket support (its libcurl reports "WebSockets not supported
/// by libcurl"); opening fails there with ``EndpointKitError/webSocketUnsupported(url:reason:)``.
final class URLSessionWebSocketChannel: WebSocketChannel {
    private struct State {
        var ending: (code: WebSocketCloseCode, reason: String)?
        var timedOut = false
    }

    private let task: URLSessionWebSocketTask
    private let delegate: SessionDelegate
    private let inbox: WebSocketInbox
    private let url: URL?
    private let state = Locked(State())

    private init(task: URLSessionWebSocketTask, delegate: SessionDelegate, inbox: WebSocketInbox, url: URL?) {
        self.task = task
        self.delegate = delegate
        self.inbox = inbox
        self.url = url
    }

    /// Opens a socket for `request` (`http`/`https` URLs are sent as `ws`/`wss`) and returns
    /// once the server has accepted the handshake.
    static func open(
        _ request: URLRequest, session: URLSession, delegate: SessionDelegate, timeout: TimeInterval?
    ) async throws -> WebSocket {
        var request = request
        request.timeoutInterval = request.idleTimeout(past: timeout)
        if let url = request.url, var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) {
            parts.scheme = parts.scheme.map { ["http": "ws", "https": "wss"][$0.lowercased()] ?? $0 }
            request.url = parts.url ?? url
        }
        let task = try delegate.makeWebSocketTask(with: request, in: session)
        let inbox = WebSocketInbox()
        let channel = URLSessionWebSocketChannel(task: task, delegate: delegate, inbox: inbox, url: request.url)
        task.resume()
        try await channel.handshake(request, timeout: timeout)
        let chosen = (task.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Sec-WebSocket-Protocol")
        let subprotocol: String?
        do {
            subprotocol = try WebSocket.checkedSubprotocol(chosen, offeredIn: request)
        } catch {
            delegate.cancel(task)
            throw error
        }
        channel.receiveNext()
        return WebSocket(request: request, channel: channel, inbox: inbox, subprotocol: subprotocol)
    }

    /// Waits for the handshake by sending a ping (answered once the socket is open).
    private func handshake(_ request: URLRequest, timeout: TimeInterval?) async throws {
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in
                guard let self, self.task.state == .running, self.inbox.closeCode == nil else { return }
                self.state.withLock { $0.timedOut = true }
                self.delegate.cancel(self.task)
            }
        }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    task.sendPing { error in continuation.resume(with: error.map { .failure($0) } ?? .success(())) }
                }
            } onCancel: {
                delegate.cancel(task)
            }
        } catch {
            // The task's own error says more than the ping's (on Linux, libcurl's -1002).
            let received = await withCheckedContinuation { (continuation: CheckedContinuation<(any Error)?, Never>) in
                task.receive { result in
                    if case .failure(let failure) = result { continuation.resume(returning: failure) } else { continuation.resume(returning: nil) }
                }
            }
            delegate.cancel(task)
            throw handshakeError(request, causes: [task.error, received, error].compactMap { $0 }, timeout: timeout)
        }
    }

    private func handshakeError(_ request: URLRequest, causes: [any Error], timeout: TimeInterval?) -> any Error {
        if Task.isCancelled { return CancellationError() }
        if let timeout, state.withLock({ $0.timedOut }) { return EndpointKitError.timedOut(url: url, limit: timeout) }
        if let response = task.response as? HTTPURLResponse, response.statusCode != 101 {
            return EndpointKitError.unacceptableStatus(HTTPFailure(request: request, response: response, body: Data()))
        }
        if let unsupported = causes.compactMap({ $0 as? URLError }).first(where: { $0.code == .unsupportedURL }) {
            return EndpointKitError.webSocketUnsupported(url: url, reason: unsupported.localizedDescription)
        }
        return EndpointKitError.transportFailed(url: url, underlying: causes.first ?? URLError(.unknown))
    }

    private func receiveNext() {
        task.receive { [self] result in
            switch result {
            case .success(.string(let text)):
                if inbox.deliver(.text(text)) { receiveNext() }
            case .success(.data(let data)):
                if inbox.deliver(.binary(data)) { receiveNext() }
            case .success:
                receiveNext()
            case .failure(let error):
                ended(error)
            }
        }
    }

    private func ended(_ error: any Error) {
        if task.closeCode != .invalid {
            let reason = task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
            inbox.finish(code: WebSocketCloseCode(rawValue: UInt16(clamping: task.closeCode.rawValue)), reason: reason)
        } else if let ending = state.withLock({ $0.ending }) {
            inbox.finish(code: ending.code, reason: ending.reason)
        } else {
            inbox.fail(EndpointKitError.transportFailed(url: url, underlying: error))
        }
    }

    func send(_ message: WebSocketMessage) async throws {
        if let ending = state.withLock({ $0.ending }) { throw EndpointKitError.webSocketClosed(url: url, code: ending.code) }
        let message: URLSessionWebSocketTask.Message =
            switch message {
            case .text(let text): .string(text)
            case .binary(let data): .data(data)
            }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            task.send(message) { [self] error in
                guard let error else { return continuation.resume() }
                continuation.resume(throwing: failure(error))
            }
        }
    }

    func ping() async throws {
        if let ending = state.withLock({ $0.ending }) { throw EndpointKitError.webSocketClosed(url: url, code: ending.code) }
        // Foundation cannot withdraw a ping: a cancelled caller stops waiting for its pong.
        let once = Locked<CheckedContinuation<Void, any Error>?>(nil)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                once.withLock { $0 = continuation }
                task.sendPing { [self] error in
                    once.withLock { $0.take() }?.resume(with: error.map { .failure(failure($0)) } ?? .success(()))
                }
                if Task.isCancelled { once.withLock { $0.take() }?.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            once.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }

    private func failure(_ error: any Error) -> any Error {
        if let ending = state.withLock({ $0.ending }) { return EndpointKitError.webSocketClosed(url: url, code: ending.code) }
        if task.closeCode != .invalid {
            return EndpointKitError.webSocketClosed(url: url, code: WebSocketCloseCode(rawValue: UInt16(clamping: task.closeCode.rawValue)))
        }
        return EndpointKitError.transportFailed(url: url, underlying: error)
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        end(code: code, reason: reason)
    }

    func resumeReading() {
        receiveNext()
    }

    func cancel() {
        end(code: .goingAway, reason: "")
    }

    /// Foundation runs the closing handshake itself; messages already received stay readable.
    private func end(code: WebSocketCloseCode, reason: String) {
        let first = state.withLock { state in
            guard state.ending == nil else { return false }
            state.ending = (code, reason)
            return true
        }
        guard first else { return }
        delegate.close(task, code: code, reason: reason)
        inbox.finish(code: code, reason: reason)
    }
}
