import Foundation

extension URL {
    /// The port a connection to this URL goes to: the one given, else the scheme's (443 for
    /// `https` and `wss`, 80 otherwise).
    @_spi(Transport) public var effectivePort: Int {
        port ?? (["https", "wss"].contains(scheme?.lowercased()) ? 443 : 80)
    }

    /// Whether this URL is `http` or `https`, the only schemes EndpointKit sends to or follows a
    /// redirect to: Foundation would otherwise speak FTP (to an HTTP port it waits for a
    /// greeting that never comes) or read a `data:` URL, neither of which answers in HTTP.
    var isHTTP: Bool {
        ["http", "https"].contains(scheme?.lowercased())
    }
}
