import Foundation

/// Pings the peer of an open ``WebSocket`` at a fixed interval (``WebSocketEndpoint/pingInterval``),
/// so that a peer that is gone without closing (a dropped route, a proxy that forgot the
/// connection, a hung server) ends the socket instead of leaving its reader waiting for good.
enum WebSocketKeepAlive {
    /// Every `interval` seconds, pings through `channel`; when no pong comes within `interval`
    /// more, the socket fails with ``EndpointKitError/timedOut(url:limit:)`` naming `url`, and
    /// the connection is cut. Ends by itself once the socket has closed, or when cancelled.
    static func start(every interval: TimeInterval, channel: any WebSocketChannel, inbox: WebSocketInbox, url: URL?) -> Task<Void, Never> {
        Task {
            do {
                while true {
                    try await Task.sleep(nanoseconds: interval.nanoseconds)
                    guard inbox.closeCode == nil else { return }
                    try await AttemptTimeout.run(interval, url: url) { try await channel.ping() }
                }
            } catch EndpointKitError.timedOut(let url, let limit) where inbox.closeCode == nil {
                inbox.fail(EndpointKitError.timedOut(url: url, limit: limit))
                channel.cancel()
            } catch {
                // Cancelled, or the socket closed while a ping was out: no news.
            }
        }
    }
}
