@_spi(Transport) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// OpenTelemetry's HTTP client conventions, as EndpointKit's monitors apply them: what may be
/// said of a URL (`URL.redactedDescription`: never its credentials or query
/// values), the method, and the attribute values for the server and the kind of failure.
enum HTTPConventions {
    /// The methods OpenTelemetry names; any other is `_OTHER`.
    private static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]

    /// `http.request.method`: the request's method, or `_OTHER` with the method as sent in
    /// `original` (for `http.request.method_original`) when it is not one of the standard nine.
    /// `server.address` and `server.port` of an overload decision's `host:port`.
    static func server(_ host: String) -> (address: String, port: String) {
        guard let colon = host.lastIndex(of: ":") else { return (host, "") }
        return (String(host[..<colon]), String(host[host.index(after: colon)...]))
    }

    static func method(_ request: URLRequest?) -> (name: String, original: String?) {
        let method = request?.httpMethod ?? "GET"
        return knownMethods.contains(method) ? (method, nil) : ("_OTHER", method)
    }

    /// The URL as it may be said: `URL.redactedDescription`, or empty.
    static func redacted(_ url: URL?) -> String {
        url?.redactedDescription ?? ""
    }

    /// The host, as OpenTelemetry's `server.address`.
    static func address(_ url: URL?) -> String {
        url?.host ?? ""
    }

    /// The port, given or the scheme's, as OpenTelemetry's `server.port`.
    static func port(_ url: URL?) -> Int {
        url?.effectivePort ?? 80
    }

    /// OpenTelemetry's `error.type`, of low cardinality: the status code for a 4xx or 5xx
    /// answer, else the kind of failure; `nil` for success.
    static func errorType(_ error: (any Error)?, status: Int?) -> String? {
        if let status, status >= 400 { return String(status) }
        guard let error else { return nil }
        switch error {
        case is CancellationError: return "cancelled"
        case let error as URLError: return "URLError(\(error.code.rawValue))"
        case let error as EndpointKitError:
            switch error {
            case .timedOut: return "timeout"
            case .transportFailed(_, let underlying as URLError): return "URLError(\(underlying.code.rawValue))"
            case .transportFailed: return "transport"
            case .decodingFailed: return "decoding"
            case .invalidRequest, .invalidURL: return "invalid_request"
            case .requestAdapterFailed: return "adapter"
            case .bodyTooLarge: return "body_too_large"
            case .redirectRefused: return "redirect"
            case .clientInvalidated: return "client_invalidated"
            default: return "_OTHER"
            }
        default: return String(describing: type(of: error))
        }
    }
}
