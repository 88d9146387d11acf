import Foundation

/// The ``ConcurrencyLimit`` of each host a client calls: calls in flight, and the calls waiting
/// for one of them to finish, first come first served.
final class HostQueues: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Host {
        var inFlight = 0
        var waiting: [Waiter] = []
    }

    private struct State {
        var hosts: [String: Host] = [:]
        var nextID: UInt64 = 0
        /// Calls about to be queued, and those of them cancelled or timed out meanwhile (with
        /// their error).
        var pending: Set<UInt64> = []
        var dropped: [UInt64: any Error] = [:]
        /// The client has begun to stop: no call waits.
        var isClosed = false
    }

    let limit: ConcurrencyLimit
    private let state = Locked(State())

    init(_ limit: ConcurrencyLimit) {
        self.limit = limit
    }

    /// Takes a place among `host`'s calls in flight, waiting for one if needed, at most
    /// `longest` seconds; `true` if the call waited. Throws
    /// ``EndpointKitError/tooManyCalls(host:limit:)`` when the queue is full,
    /// ``EndpointKitError/timedOut(url:limit:)`` (naming `url`) when no place came within
    /// `longest`, `CancellationError` when the task is cancelled while it waits, and
    /// ``EndpointKitError/clientInvalidated`` when the client stops (``close()``); either way it
    /// leaves the queue at once. Each successful `enter` needs one ``leave(_:)``.
    func enter(_ host: String, within longest: TimeInterval? = nil, url: URL? = nil) async throws -> Bool {
        let (admitted, id) = state.withLock { state -> (Bool, UInt64) in
            state.nextID += 1
            if state.hosts[host, default: Host()].inFlight < limit.maximumInFlight {
                state.hosts[host, default: Host()].inFlight += 1
                return (true, state.nextID)
            }
            state.pending.insert(state.nextID)
            return (false, state.nextID)
        }
        if admitted { return false }
        // Only a call that waits has a timer.
        let timer = longest.flatMap { $0.isFinite ? $0 : nil }.map { longest in
            Task { [self] in
                try await Task.sleep(nanoseconds: longest.nanoseconds)
                drop(id, of: host, with: EndpointKitError.timedOut(url: url, limit: longest))
            }
        }
        defer { timer?.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    state.pending.remove(id)
                    if let error = state.dropped.removeValue(forKey: id) { return .failure(error) }
                    var entry = state.hosts[host, default: Host()]
                    defer { state.hosts[host] = entry }
                    if entry.inFlight < limit.maximumInFlight {
                        entry.inFlight += 1
                        return .success(())
                    }
                    guard !state.isClosed else { return .failure(EndpointKitError.clientInvalidated) }
                    guard entry.waiting.count < limit.maximumQueued else {
                        return .failure(EndpointKitError.tooManyCalls(host: host, limit: limit.maximumInFlight))
                    }
                    entry.waiting.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            drop(id, of: host, with: CancellationError())
        }
        return true
    }

    /// Takes call `id` out of `host`'s queue, failing it with `error`; a call not queued yet is
    /// failed as it comes. A call that has its place already is left alone.
    private func drop(_ id: UInt64, of host: String, with error: any Error) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.hosts[host]?.waiting.firstIndex(where: { $0.id == id }) else {
                if state.pending.contains(id) { state.dropped[id] = error }
                return nil
            }
            return state.hosts[host]?.waiting.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }

    /// Fails every waiting call with ``EndpointKitError/clientInvalidated``, and every call that
    /// would wait from now on: the client has begun to stop, and would not send them.
    func close() {
        let waiters = state.withLock { state -> [Waiter] in
            state.isClosed = true
            for id in state.pending { state.dropped[id] = EndpointKitError.clientInvalidated }
            let waiters = state.hosts.values.flatMap(\.waiting)
            state.hosts = state.hosts.compactMapValues { entry in
                entry.inFlight == 0 ? nil : Host(inFlight: entry.inFlight)
            }
            return waiters
        }
        for waiter in waiters { waiter.continuation.resume(throwing: EndpointKitError.clientInvalidated) }
    }

    /// Takes a place among `host`'s calls in flight if one is free now, without waiting (and
    /// so never ahead of a waiting call: there is none while a place is free); `true` if it
    /// did. Each `true` needs one ``leave(_:)``.
    func enterIfFree(_ host: String) -> Bool {
        state.withLock { state in
            guard state.hosts[host, default: Host()].inFlight < limit.maximumInFlight else { return false }
            state.hosts[host, default: Host()].inFlight += 1
            return true
        }
    }

    /// Gives back a place taken by ``enter(_:)``: to the call that waited longest, if any.
    func leave(_ host: String) {
        let next = state.withLock { state -> Waiter? in
            guard var entry = state.hosts[host] else { return nil }
            defer { state.hosts[host] = entry.inFlight == 0 && entry.waiting.isEmpty ? nil : entry }
            if entry.waiting.isEmpty {
                entry.inFlight -= 1
                return nil
            }
            return entry.waiting.removeFirst()
        }
        next?.continuation.resume()
    }
}
