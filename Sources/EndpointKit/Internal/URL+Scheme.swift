import Foundation

extension URL {
    /// The port a connection to this URL goes to: the one given, else the scheme's (443 for
    /// `https` and `wss`, 80 otherwise).
    @_spi(Transport) public var effectivePort: Int {
        port ?? (["https", "wss"].contains(scheme?.lowercased()) ? 443 : 80)
    }

    /// `host:port`, the key a client keeps its state of a server by (its circuit, its queue,
    /// a pause in sending again); `<no host>` for a URL without one.
    @_spi(Transport) public var serverKey: String {
        guard let host else { return "<no host>" }
        return "\(host):\(effectivePort)"
    }

    /// Whether this URL is `http` or `https`, the only schemes EndpointKit sends to or follows a
    /// redirect to: Foundation would otherwise speak FTP (to an HTTP port it waits for a
    /// greeting that never comes) or read a `data:` URL, neither of which answers in HTTP.
    var isHTTP: Bool {
        ["http", "https"].contains(scheme?.lowercased())
    }

    /// This URL with its scheme in lower case (`HTTP://host/` as `http://host/`) when the
    /// scheme has capitals in it; `nil` otherwise. A scheme is case-insensitive (RFC 3986,
    /// 3.1), but Foundation on Linux takes only `http` and `https` as written, and refuses the
    /// rest as an unsupported URL.
    var schemeLowercased: URL? {
        guard let scheme, scheme.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else { return nil }
        return URL(string: scheme.lowercased() + absoluteString.dropFirst(scheme.utf8.count))
    }
}
