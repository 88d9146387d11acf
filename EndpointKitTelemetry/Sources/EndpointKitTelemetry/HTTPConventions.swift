import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// OpenTelemetry's HTTP client conventions, as EndpointKit's monitors apply them: what may be
/// said of a URL (never its credentials or query values), and the attribute values for the
/// server and the kind of failure.
enum HTTPConventions {
    /// `url` without user, password and fragment, each query value replaced by `REDACTED`.
    static func redacted(_ url: URL?) -> String {
        guard let url else { return "" }
        if url.query == nil, url.user == nil, url.password == nil, url.fragment == nil { return url.absoluteString }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "" }
        components.user = nil
        components.password = nil
        components.fragment = nil
        components.queryItems = components.queryItems?.map { URLQueryItem(name: $0.name, value: $0.value == nil ? nil : "REDACTED") }
        return components.string ?? ""
    }

    /// The host, as OpenTelemetry's `server.address`.
    static func address(_ url: URL?) -> String {
        url?.host ?? ""
    }

    /// The port, given or the scheme's, as OpenTelemetry's `server.port`.
    static func port(_ url: URL?) -> Int {
        if let port = url?.port { return port }
        return ["https", "wss"].contains(url?.scheme?.lowercased() ?? "") ? 443 : 80
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
