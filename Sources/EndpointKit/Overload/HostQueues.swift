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
        /// Calls about to be queued, and those of them cancelled meanwhile.
        var pending: Set<UInt64> = []
        var cancelled: Set<UInt64> = []
    }

    let limit: ConcurrencyLimit
    private let state = Locked(State())

    init(_ limit: ConcurrencyLimit) {
        self.limit = limit
    }

    /// Takes a place among `host`'s calls in flight, waiting for one if needed; `true` if the
    /// call waited. Throws ``EndpointKitError/tooManyCalls(host:limit:)`` when the queue is
    /// full, and `CancellationError` when the task is cancelled while it waits (it leaves the
    /// queue at once). Each successful `enter` needs one ``leave(_:)``.
    func enter(_ host: String) async throws -> Bool {
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
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    state.pending.remove(id)
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    var entry = state.hosts[host, default: Host()]
                    defer { state.hosts[host] = entry }
                    if entry.inFlight < limit.maximumInFlight {
                        entry.inFlight += 1
                        return .success(())
                    }
                    guard entry.waiting.count < limit.maximumQueued else {
                        return .failure(EndpointKitError.tooManyCalls(host: host, limit: limit.maximumInFlight))
                    }
                    entry.waiting.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.hosts[host]?.waiting.firstIndex(where: { $0.id == id }) else {
                    if state.pending.contains(id) { state.cancelled.insert(id) }
                    return nil
                }
                return state.hosts[host]?.waiting.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
        return true
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
