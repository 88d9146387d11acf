import Foundation

/// A client's base URL that relative request paths cannot be resolved against: it has no
/// scheme (`api.example.com/v1`, or `localhost:8080`, which reads as the scheme `localhost`),
/// or an HTTP one without a host (`https://`, an unset variable in `https://$HOST`). Resolved
/// anyway, the path would become part of the host, or be sent nowhere in particular. Each
/// call with a relative path fails with it, before anything is sent, as the `underlying` error of
/// ``EndpointKitError/requestAdapterFailed(adapter:underlying:)``.
public struct InvalidBaseURL: Error, Sendable, Equatable, CustomStringConvertible {
    /// The base URL, as given.
    public let baseURL: URL
    /// What is wrong with it, in words.
    public let reason: String

    /// A base URL refused for `reason`.
    public init(baseURL: URL, reason: String) {
        self.baseURL = baseURL
        self.reason = reason
    }

    /// Names the base URL (without credentials or query values) and the reason.
    public var description: String {
        "base URL '\(baseURL.redactedDescription)' cannot be used: \(reason) (a base URL is like https://api.example.com/v1)"
    }

    /// Why relative paths cannot be resolved against `baseURL`, or `nil` when they can.
    static func problem(_ baseURL: URL) -> InvalidBaseURL? {
        let text = baseURL.absoluteString
        guard text.contains("://") else {
            return InvalidBaseURL(baseURL: baseURL, reason: "it has no scheme; write http:// or https:// before the host")
        }
        let scheme = baseURL.scheme?.lowercased() ?? ""
        guard ["http", "https", "ws", "wss"].contains(scheme), baseURL.host?.isEmpty ?? true else { return nil }
        return InvalidBaseURL(baseURL: baseURL, reason: "it has no host")
    }
}
