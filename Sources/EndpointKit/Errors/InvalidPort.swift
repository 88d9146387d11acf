import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URL port that no TCP server can listen on: outside 1–65535 (a typo in a configured base
/// URL, `:99999`). AsyncHTTPClient stops the process over such a port after an IP address, and
/// connects to the port cut to 16 bits after a host name; Foundation fails without a reason.
/// The call is refused before anything is sent, as the `underlying` error of
/// ``EndpointKitError/invalidRequest(endpoint:underlying:)``; a redirect to such a port ends
/// with ``EndpointKitError/redirectRefused(url:reason:)``.
public struct InvalidPort: Error, Sendable, Equatable, CustomStringConvertible {
    /// The port, as the URL gives it.
    public let port: Int

    /// A port refused because no server can listen on it.
    public init(port: Int) {
        self.port = port
    }

    /// Names the port and the range.
    public var description: String {
        "port \(port) cannot be connected to: a TCP port is between 1 and 65535"
    }

    /// The problem with `url`'s port, if it gives one that no server can listen on.
    static func problem(in url: URL) -> InvalidPort? {
        url.port.flatMap { (1...65535).contains($0) ? nil : InvalidPort(port: $0) }
    }

    /// Throws ``EndpointKitError/invalidRequest(endpoint:underlying:)`` around an
    /// `InvalidPort` when `request`'s URL gives a port outside 1–65535.
    static func check(_ request: URLRequest) throws {
        guard let problem = request.url.flatMap(problem(in:)) else { return }
        throw EndpointKitError.invalidRequest(endpoint: "URLRequest.url", underlying: problem)
    }
}
