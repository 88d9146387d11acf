import Foundation

/// Whether a client has begun to stop, and the waits its stopping ends at once: retries of its
/// calls waiting to be sent, and Server-Sent Events feeds waiting to reconnect. Neither could
/// be sent, and its caller would otherwise wait out a backoff, a `Retry-After` or a `retry`
/// time of up to minutes only to fail.
final class ClientClosing: Sendable {
    private struct State {
        var isClosed = false
        var nextID: UInt64 = 0
        /// Waits begun and not over, those of them asleep, and those woken before they slept.
        var pending: Set<UInt64> = []
        var asleep: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var woken: Set<UInt64> = []
    }

    private let state = Locked(State())

    /// Whether ``close()`` was called.
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Ends every wait, and every later one at once.
    func close() {
        let sleepers = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isClosed = true
            state.woken.formUnion(state.pending)
            defer { state.asleep = [:] }
            return Array(state.asleep.values)
        }
        for sleeper in sleepers { sleeper.resume() }
    }

    /// Waits `seconds`. Throws ``EndpointKitError/clientInvalidated`` when the client stops
    /// before or meanwhile, and `CancellationError` when the task is cancelled, either at once.
    func wait(_ seconds: TimeInterval) async throws {
        let id = state.withLock { state -> UInt64? in
            guard !state.isClosed else { return nil }
            state.nextID &+= 1
            state.pending.insert(state.nextID)
            return state.nextID
        }
        guard let id else { throw EndpointKitError.clientInvalidated }
        let timer = Task { [self] in
            // Cancelled once the wait is over: then nothing is left to wake.
            guard (try? await Task.sleep(nanoseconds: seconds.nanoseconds)) != nil else { return }
            wake(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    guard state.woken.remove(id) == nil else { return true }
                    state.asleep[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            wake(id)
        }
        timer.cancel()
        let closed = state.withLock { state -> Bool in
            state.pending.remove(id)
            state.woken.remove(id)
            return state.isClosed
        }
        try Task.checkCancellation()
        if closed { throw EndpointKitError.clientInvalidated }
    }

    /// Ends wait `id`: now if it sleeps, as it begins if it has not yet.
    private func wake(_ id: UInt64) {
        let sleeper = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let sleeper = state.asleep.removeValue(forKey: id) { return sleeper }
            if state.pending.contains(id) { state.woken.insert(id) }
            return nil
        }
        sleeper?.resume()
    }
}
