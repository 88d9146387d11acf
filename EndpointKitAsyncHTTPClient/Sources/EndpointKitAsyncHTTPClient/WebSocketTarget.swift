@_spi(Transport) import EndpointKit
import Foundation
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a WebSocket handshake goes, read from its request's URL (`ws`, `wss`, `http`, `https`).
struct WebSocketTarget: Sendable {
    let host: String
    let port: Int
    let secure: Bool
    /// The path and query to ask for.
    let uri: String

    init(_ request: URLRequest) throws {
        guard let url = request.url?.removingDotSegments, let parts = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = parts.scheme?.lowercased(), let host = parts.host, !host.isEmpty
        else { throw EndpointKitError.invalidURL(request.url?.absoluteString ?? "") }
        switch scheme {
        case "ws", "http": secure = false
        case "wss", "https": secure = true
        default: throw EndpointKitError.invalidURL(url.absoluteString)
        }
        // URLComponents keeps the brackets of an IPv6 literal in `host`; sockets want it bare.
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        port = parts.port ?? (secure ? 443 : 80)
        let path = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
        uri = parts.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    }

    /// The name TLS checks the certificate against; none for an IP address.
    var serverName: String? {
        host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host
    }

    /// The handshake's request head: the request's own headers, plus `Host` and the URL's
    /// credentials. Not an offer of extensions (`Sec-WebSocket-Extensions`): this client
    /// speaks none, and a server that took one up would send frames it cannot read.
    func head(_ request: URLRequest) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        let defaultPort = secure ? 443 : 80
        let name = host.contains(":") ? "[\(host)]" : host
        headers.add(name: "Host", value: port == defaultPort ? name : "\(name):\(port)")
        for (field, value) in request.allHTTPHeaderFields ?? [:] where !["host", "sec-websocket-extensions"].contains(field.lowercased()) {
            headers.add(name: field, value: value)
        }
        if let url = request.url { headers.addCredentials(of: url) }
        return HTTPRequestHead(version: .http1_1, method: .GET, uri: uri, headers: headers)
    }
}
