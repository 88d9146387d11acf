import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Builds a request for `path`, which is relative to the client's base URL (see
    /// ``BaseRequestAdapter``) unless it is an absolute URL.
    ///
    /// The path is percent-encoded as a path (a space becomes `%20`; `/` separates segments),
    /// keeping the escapes written into it (`a%2Fb` stays one segment; a `%` that starts none
    /// becomes `%25`). A `?` in it starts a query written by hand (`"books?page=2"`), encoded
    /// the same way.
    /// `query` names and values are percent-encoded so that reserved characters (`&`, `=`, `+`,
    /// `#`, `?`) and non-ASCII text arrive as written.
    ///
    /// - Throws: ``EndpointKitError/invalidURL(_:)`` when no URL can be made of `path`;
    ///   ``InvalidHeaderField`` for a header whose name is not an HTTP token or whose value
    ///   holds a line break (Foundation would drop that value without a word).
    public init(
        _ method: HTTPMethod = .get, _ path: String, query: [URLQueryItem] = [],
        headers: [String: String] = [:]
    ) throws {
        guard let url = URLRequest.url(path: path, query: query) else {
            throw EndpointKitError.invalidURL(path)
        }
        self.init(url: url)
        // GET is the default; setting it anyway costs a header normalization per call.
        if method != .get { httpMethod = method.rawValue }
        guard !headers.isEmpty else { return }
        for (name, value) in headers {
            if let problem = InvalidHeaderField.problem(name: name, value: value) { throw problem }
        }
        setFields(headers.lazy.map { ($0.key, $0.value) }, checked: true)
    }

    /// Sets a JSON body and `Content-Type: application/json`.
    public mutating func setJSONBody<Value: Encodable>(
        _ value: Value, encoder: JSONEncoder = JSONEncoder()
    ) throws {
        setBody(try encoder.encode(value), contentType: "application/json")
    }

    /// Sets an `application/x-www-form-urlencoded` body from the fields, in order.
    public mutating func setFormBody(_ fields: [URLQueryItem]) {
        let body = QueryEncoding.encode(fields)
        setBody(Data(body.utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// Sets a text body, UTF-8 encoded, with `text/plain; charset=utf-8` unless told otherwise.
    public mutating func setTextBody(_ text: String, contentType: String = "text/plain; charset=utf-8") {
        setBody(Data(text.utf8), contentType: contentType)
    }

    /// Sets a body and its `Content-Type`.
    public mutating func setBody(_ data: Data, contentType: String) {
        httpBody = data
        setField(contentType, named: "Content-Type")
    }

    /// The URLs of plain paths parsed so far, by their path.
    private static let plainPaths = ParsedURLs()

    private static func url(path: String, query: [URLQueryItem]) -> URL? {
        // The common case, a plain path: no encoding needed, and most often parsed before (its
        // bytes are then not read again: only a path parsed for the first time is checked).
        if query.isEmpty, !path.isEmpty, let url = plainPaths.url(for: path, parsing: { isPlain(path) ? URL(string: path) : nil }) {
            return url
        }
        var components: URLComponents
        if path.contains("://") {
            guard let absolute = URLComponents(string: path) else { return nil }
            components = absolute
        } else {
            components = URLComponents()
            let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            components.percentEncodedPath = WrittenEscapes.encode(parts[0], allowed: .urlPathAllowed)
            if parts.count == 2 { components.percentEncodedQuery = WrittenEscapes.encode(parts[1], allowed: .urlQueryAllowed) }
        }
        if !query.isEmpty {
            let existing = components.percentEncodedQuery.map { [$0] } ?? []
            components.percentEncodedQuery = (existing + [QueryEncoding.encode(query)])
                .joined(separator: "&")
        }
        return components.url
    }

    /// Whether every byte of `path` is one a path keeps as it is.
    private static func isPlain(_ path: String) -> Bool {
        path.utf8.allSatisfy(isPlainPathByte)
    }

    /// Bytes a relative path may hold as they are: unreserved and path characters, no `%`,
    /// `?`, `#` or `:` (which could start a scheme).
    private static func isPlainPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: "@"):
            true
        default:
            false
        }
    }
}
