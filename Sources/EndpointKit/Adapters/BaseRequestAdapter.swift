import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Resolves each request's relative URL against a base URL and adds default headers.
///
/// The request's path is *appended* to the base URL's path, so with the base
/// `https://api.example.com/v1` the path `books/1` (or `/books/1`) becomes
/// `https://api.example.com/v1/books/1`. Query items of both are kept, the base's first.
/// Absolute request URLs are left as they are; one without a scheme (`//cdn.example.com/a`)
/// takes the base's. Default headers never replace a header the request already has. A base
/// URL without a scheme, or an HTTP one without a host, fails each call with a relative path
/// (see ``InvalidBaseURL``).
public struct BaseRequestAdapter: RequestAdapter {
    /// The URL that relative request paths are appended to.
    public let baseURL: URL
    /// Headers added to every request that does not set them itself.
    public let headers: [String: String]

    /// Creates an adapter for `baseURL`, adding `headers` to every request. A header that
    /// cannot be sent (see ``InvalidHeaderField``) fails every request it would be added to.
    public init(baseURL: URL, headers: [String: String] = [:]) {
        self.baseURL = baseURL
        self.headers = headers
        self.invalidHeader = headers.lazy.compactMap(InvalidHeaderField.problem).first
        self.distinctHeaders = headers.reduce(into: [:]) { distinct, field in
            if !distinct.keys.contains(where: { HTTPToken.sameName($0, field.key) }) { distinct[field.key] = field.value }
        }
        self.invalidBase = InvalidBaseURL.problem(baseURL)
        let absolute = baseURL.absoluteString
        if baseURL.query == nil, baseURL.fragment == nil, baseURL.scheme != nil, !absolute.contains("?"), !absolute.contains("#") {
            self.joinableBase = absolute.hasSuffix("/") ? absolute : absolute + "/"
        } else {
            self.joinableBase = nil
        }
    }

    /// The base URL ending in `/`, when a relative path can simply be appended to it.
    private let joinableBase: String?
    /// ``headers``, one field a name whatever its case (as Foundation keeps them).
    private let distinctHeaders: [String: String]
    /// A default header that cannot be sent, found once.
    private let invalidHeader: InvalidHeaderField?
    /// Why relative paths cannot be resolved against the base URL, found once.
    private let invalidBase: InvalidBaseURL?
    /// The URLs joined so far, by the relative string each was joined from: parsing the joined
    /// string is most of what the adapter costs. Shared by the adapter's copies.
    private let joined = ParsedURLs()

    /// Resolves the URL and adds the default headers.
    public func adapt(_ request: URLRequest) throws -> URLRequest {
        var request = request
        try apply(to: &request)
        return request
    }

    /// Resolves the URL and adds the default headers in place: a request no one else holds
    /// is changed without a copy. A request this leaves alone is not copied either.
    func apply(to request: inout URLRequest) throws {
        if let url = request.url, url.scheme == nil {
            if let invalidBase { throw invalidBase }
            request.url = try resolve(url)
        }
        if let invalidHeader { throw invalidHeader }
        // Checked when the adapter was made: set as they are, without a copy, or those the
        // request lacks. The names are compared here: Foundation's lookup by name lowercases
        // every field's name for each name asked.
        guard !distinctHeaders.isEmpty else { return }
        guard let own = request.allHTTPHeaderFields, !own.isEmpty else {
            request.allHTTPHeaderFields = distinctHeaders
            return
        }
        var fields = own
        for (name, value) in distinctHeaders where !own.keys.contains(where: { HTTPToken.sameName($0, name) }) {
            fields[name] = value
        }
        if fields.count > own.count { request.allHTTPHeaderFields = fields }
    }

    private func resolve(_ relative: URL) throws -> URL {
        // The common case, a base without query or fragment and a relative path: join the strings.
        let tail = relative.relativeString
        let first = tail.utf8.first
        // `//host/path` names its host: it takes only the base's scheme (RFC 3986, 4.2).
        if first == UInt8(ascii: "/"), tail.utf8.dropFirst().first == UInt8(ascii: "/") {
            guard let url = URL(string: tail, relativeTo: baseURL)?.absoluteURL else { throw EndpointKitError.invalidURL(tail) }
            return url
        }
        if let joinable = joinableBase, let first, first != UInt8(ascii: "?"), first != UInt8(ascii: "#") {
            let joining = { URL(string: joinable + (first == UInt8(ascii: "/") ? tail.dropFirst() : Substring(tail))) }
            if let url = joined.url(for: tail, parsing: joining) { return url }
        }
        guard var base = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            let tail = URLComponents(url: relative, resolvingAgainstBaseURL: false)
        else { throw EndpointKitError.invalidURL(relative.relativeString) }
        let head = base.percentEncodedPath.hasSuffix("/")
            ? String(base.percentEncodedPath.dropLast()) : base.percentEncodedPath
        let path = tail.percentEncodedPath
        if !path.isEmpty {
            base.percentEncodedPath = head + (path.hasPrefix("/") ? path : "/" + path)
        }
        let queries = [base.percentEncodedQuery, tail.percentEncodedQuery].compactMap { $0 }
        base.percentEncodedQuery = queries.isEmpty ? nil : queries.joined(separator: "&")
        if let fragment = tail.percentEncodedFragment { base.percentEncodedFragment = fragment }
        guard let url = base.url else { throw EndpointKitError.invalidURL(relative.relativeString) }
        return url
    }
}
