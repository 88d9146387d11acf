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

    /// Read once when made, since every lookup of a hit reads them: the header fields by
    /// lowercased name, the `Date` field parsed, and the `Cache-Control` directives.
    private let fields: [String: String]
    let date: Date?
    let control: CacheControl
    /// The last answer served from it, reused while its `Age` (whole seconds), status and URL
    /// are the same: a hit then builds no Foundation response of its own. Shared by copies.
    let served = Locked<(age: String, response: HTTPURLResponse)?>(nil)

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
        var fields: [String: String] = [:]
        for (name, value) in headers { fields[name.lowercased()] = value }
        self.fields = fields
        self.date = fields["date"].flatMap(HTTPDate.parse)
        self.control = CacheControl(fields["cache-control"])
    }

    /// The value of header field `name`, whatever its case.
    public func header(_ name: String) -> String? {
        fields[name.lowercased()]
    }

    /// Two stored answers are equal when what they hold is (what is read from it follows).
    public static func == (lhs: CachedResponse, rhs: CachedResponse) -> Bool {
        (lhs.url, lhs.statusCode, lhs.headers, lhs.body) == (rhs.url, rhs.statusCode, rhs.headers, rhs.body)
            && (lhs.requestDate, lhs.responseDate, lhs.varying) == (rhs.requestDate, rhs.responseDate, rhs.varying)
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
