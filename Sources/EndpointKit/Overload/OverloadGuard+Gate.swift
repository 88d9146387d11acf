import Foundation

/// The circuit and the queue of a host around one request.
extension OverloadGuard {
    /// Runs `send` under the circuit and queue of `url`'s host, and counts its outcome by the
    /// status it returns: for each request sent (``OverloadTransport``) and each WebSocket
    /// handshake. The wait in the queue counts against the attempt's `timeout`: `send` is given
    /// the time left of it. If less than a millisecond is left (a place freed as the calls
    /// ahead timed out), nothing is sent; either way, a call that runs out of time fails with
    /// ``EndpointKitError/timedOut(url:limit:)`` naming the whole `timeout`. Without a breaker
    /// or a limit, just runs `send`.
    func guarding<Answer>(
        _ url: URL?, within timeout: TimeInterval?, _ send: (_ timeout: TimeInterval?) async throws -> (Answer, Int)
    ) async throws -> Answer {
        guard circuits != nil || queues != nil else { return try await send(timeout).0 }
        let host = Self.host(of: url)
        let admission = try admit(host)
        var left = timeout
        if let queues {
            let start = CallContext.now
            do {
                if try await queues.enter(host, within: timeout, url: url) {
                    let waited = CallContext.seconds(since: start)
                    tell(.queued, host: host, seconds: waited)
                    left = timeout.map { $0 - waited }
                }
            } catch {
                if case EndpointKitError.tooManyCalls = error { tell(.queueFull, host: host) }
                if case EndpointKitError.timedOut = error { tell(.queued, host: host, seconds: CallContext.seconds(since: start)) }
                record(.uncounted, host: host, admission: admission)
                throw error
            }
        }
        defer { queues?.leave(host) }
        if let timeout, let left, left < Self.shortestSend {
            record(.uncounted, host: host, admission: admission)
            throw EndpointKitError.timedOut(url: url, limit: timeout)
        }
        do {
            let (answer, status) = try await send(left)
            record(status >= 500 ? .failure : .success, host: host, admission: admission)
            return answer
        } catch {
            record(Self.outcome(of: error), host: host, admission: admission)
            // The wait took part of the time: the call timed out after all of it.
            if let timeout, left != timeout, case EndpointKitError.timedOut(let url, _) = error {
                throw EndpointKitError.timedOut(url: url, limit: timeout)
            }
            throw error
        }
    }

    /// The least time left after a wait in the queue for which a request is sent.
    private static let shortestSend: TimeInterval = 0.001

    /// The circuit's word on a call to `host`: throws when it is open.
    private func admit(_ host: String) throws -> CircuitBoard.Admission {
        guard let circuits else { return .pass }
        let admission = circuits.admit(host)
        switch admission {
        case .pass: break
        case .probe: tell(.circuitProbe, host: host)
        case .reject(let until):
            let wait = until > CallContext.now ? Double(until - CallContext.now) / 1e9 : 0
            tell(.circuitRejected, host: host, seconds: wait)
            throw EndpointKitError.circuitOpen(host: host, until: Date().addingTimeInterval(wait))
        }
        return admission
    }

    private func record(_ outcome: CircuitBoard.Outcome, host: String, admission: CircuitBoard.Admission) {
        switch circuits?.record(outcome, host: host, admission: admission) {
        case .opened?: tell(.circuitOpened, host: host, seconds: policy.circuitBreaker?.openDuration)
        case .closed?: tell(.circuitClosed, host: host)
        case nil: break
        }
    }

    /// How the breaker counts a call that ended with `error`.
    private static func outcome(of error: any Error) -> CircuitBoard.Outcome {
        switch error {
        case EndpointKitError.timedOut, EndpointKitError.transportFailed: .failure
        case EndpointKitError.unacceptableStatus(let failure) where failure.statusCode >= 500: .failure
        default: .uncounted
        }
    }
}
