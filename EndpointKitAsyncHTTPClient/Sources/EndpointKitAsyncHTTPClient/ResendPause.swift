@_spi(Transport) @_spi(Locking) import EndpointKit
import Foundation

/// The hosts to which a request is not sent again on a fresh connection for a while (see
/// `AsyncHTTPClientTransport.sentAgainIfClosed`): those where a request sent again was cut off
/// as the first had been. Sending again is for a pooled connection that a server had just
/// closed as idle; when the second connection ends the same way, the server is closing every
/// connection it takes (a proxy whose backend is gone, a service restarting), and each send
/// again would only double the load on it, outside the retry budget.
final class ResendPause: Sendable {
    /// How long a host is paused once a second send to it failed.
    static let length: TimeInterval = 1

    /// The paused hosts, and until when (`ProcessInfo.systemUptime`).
    private let until = Locked<[String: TimeInterval]>([:])

    /// Whether a request to `url` may be sent again now.
    func allowsResend(to url: URL) -> Bool {
        let now = ProcessInfo.processInfo.systemUptime
        return until.withLock { until in
            guard let end = until[url.serverKey] else { return true }
            return end <= now
        }
    }

    /// Pauses sending again to `url`'s server (host and port), and forgets the pauses that
    /// have ended.
    func pause(_ url: URL) {
        let now = ProcessInfo.processInfo.systemUptime
        until.withLock { until in
            until = until.filter { $0.value > now }
            until[url.serverKey] = now + Self.length
        }
    }
}
