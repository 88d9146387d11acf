import Foundation

extension URL {
    /// The port a connection to this URL goes to: the one given, else the scheme's (443 for
    /// `https` and `wss`, 80 otherwise).
    @_spi(Transport) public var effectivePort: Int {
        port ?? (["https", "wss"].contains(scheme?.lowercased()) ? 443 : 80)
    }
}
