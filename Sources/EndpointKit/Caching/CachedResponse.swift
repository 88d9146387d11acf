import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One stored answer: what a ``HTTPCacheStore`` keeps. The cache makes them; a store only keeps
/// and returns them.
public struct CachedResponse: Sendable, Equatable {
    /// The URL the answer came from.
    public let url: URL
    /// Its status code.
    public let statusCode: Int
    /// Its header fields, as received (or as refreshed by a later `304`).
    public let headers: [String: String]
    /// Its body, decoded (as the caller's endpoint received it).
    public let body: Data
    /// When the request that brought it was sent (RFC 9111's `request_time`).
    public let requestDate: Date
    /// When it was received (`response_time`).
    public let responseDate: Date
    /// The request's values of the fields its `Vary` names, by lowercased name; a field the
    /// request did not have is absent. Answers to the same URL with different values here are
    /// different entries.
    public let varying: [String: String]

    /// Creates a stored answer (stores that read their own format back make them too).
    public init(
        url: URL, statusCode: Int, headers: [String: String], body: Data, requestDate: Date, responseDate: Date,
        varying: [String: String]
    ) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.requestDate = requestDate
        self.responseDate = responseDate
        self.varying = varying
    }

    /// The value of header field `name`, whatever its case.
    public func header(_ name: String) -> String? {
        if let value = headers[name] { return value }
        return headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Which variant of its URL this is, as one string: equal for answers a store keeps as one
    /// entry (same ``varying``).
    public var variant: String { Self.variant(of: varying) }

    /// The ``variant`` of an answer whose ``varying`` is `varying`.
    static func variant(of varying: [String: String]) -> String {
        varying.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
    }

    /// About how many bytes it takes: the body, the header fields and the URL.
    public var size: Int {
        body.count + url.absoluteString.utf8.count + headers.reduce(64) { $0 + $1.key.utf8.count + $1.value.utf8.count + 4 }
    }
}
