@_spi(Transport) @_spi(Locking) import EndpointKit
import Foundation

/// The requests a client has in flight, and whether it takes new ones: what a graceful
/// shutdown closes, then waits for. A request counts from its send until its response (or,
/// for a stream, its body) has been read to the end, failed, or been dropped.
final class CallsInFlight: Sendable {
    private let state = Locked((open: true, count: 0))

    /// Whether new requests are taken.
    var isOpen: Bool { state.withLock { $0.open } }

    /// How many requests are in flight.
    var count: Int { state.withLock { $0.count } }

    /// Counts a request in, or throws ``EndpointKit/EndpointKitError/clientInvalidated`` once closed.
    func enter() throws {
        try state.withLock { state in
            guard state.open else { throw EndpointKitError.clientInvalidated }
            state.count += 1
        }
    }

    /// Counts a request out.
    func leave() {
        state.withLock { $0.count -= 1 }
    }

    /// Takes no more requests; `true` the first time.
    func close() -> Bool {
        state.withLock { state in
            defer { state.open = false }
            return state.open
        }
    }

    /// Waits until no request is in flight, or `limit` has passed (or the task is cancelled).
    func drain(within limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while count > 0, ContinuousClock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
