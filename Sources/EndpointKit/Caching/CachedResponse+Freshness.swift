import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RFC 9111's arithmetic on a stored answer: its age, how long it is fresh, its validators,
/// and which requests it may answer.
extension CachedResponse {
    /// Statuses that may be stored without explicit freshness (RFC 9110, 15.1), and so get a
    /// heuristic lifetime from `Last-Modified`.
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]
    /// The longest heuristic lifetime: a tenth of the time since `Last-Modified`, but at most a
    /// week (as Firefox caps it).
    static let heuristicLimit: TimeInterval = 7 * 86_400

    /// Whether it can be revalidated: it has an `ETag` or a `Last-Modified`.
    var hasValidators: Bool { header("ETag") != nil || header("Last-Modified") != nil }

    /// Its age at `now`, in seconds (`current_age`, RFC 9111, 4.2.3).
    func age(at now: Date) -> TimeInterval {
        let date = self.date ?? responseDate
        // delta-seconds, as in Cache-Control: not any number (`1e300` made an infinite age).
        let ageValue = CacheControl.seconds(header("Age")?.trimmingCharacters(in: .whitespaces)) ?? 0
        let apparentAge = max(0, responseDate.timeIntervalSince(date))
        let responseDelay = max(0, responseDate.timeIntervalSince(requestDate))
        return max(apparentAge, ageValue + responseDelay) + max(0, now.timeIntervalSince(responseDate))
    }

    /// How long it is fresh, in seconds (RFC 9111, 4.2.1): `max-age` (`s-maxage` is for shared
    /// caches), else `Expires` less `Date` (an invalid `Expires` means already expired), else,
    /// for a status cacheable by default or a `public` answer, a tenth of the time since
    /// `Last-Modified` (4.2.2), at most ``heuristicLimit``; else 0.
    func freshnessLifetime(_ control: CacheControl) -> TimeInterval {
        if let maxAge = control.maxAge { return maxAge }
        let date = self.date ?? responseDate
        if let expires = header("Expires") {
            return HTTPDate.parse(expires).map { max(0, $0.timeIntervalSince(date)) } ?? 0
        }
        guard Self.heuristicallyCacheable.contains(statusCode) || control.isPublic,
            let lastModified = header("Last-Modified").flatMap(HTTPDate.parse)
        else { return 0 }
        return min(max(0, date.timeIntervalSince(lastModified)) / 10, Self.heuristicLimit)
    }

    /// Whether it may answer `request`: every field its `Vary` names has the same value in the
    /// request as in the one that brought it (RFC 9111, 4.1).
    func matches(_ request: URLRequest) -> Bool {
        Self.varyingFields(header("Vary")).allSatisfy { name in
            request.field(named: name).map(Self.normalized) == varying[name]
        }
    }

    /// Whether `response` (a `304`, or a `200` to `HEAD`) speaks of this stored answer: their
    /// `ETag`s are the same, or without one, their `Last-Modified` (RFC 9111, 4.3.4).
    func isSelected(by response: HTTPURLResponse) -> Bool {
        if let tag = response.value(forHTTPHeaderField: "ETag") {
            return header("ETag").map { Self.opaque($0) == Self.opaque(tag) } ?? false
        }
        if let modified = response.value(forHTTPHeaderField: "Last-Modified") {
            return header("Last-Modified") == modified
        }
        return true
    }

    /// This answer with the header fields of `response` (a `304`, or a `200` to `HEAD`) in
    /// place of its own, except those that describe the stored body (RFC 9111, 3.2), as of
    /// the exchange between `requestDate` and `responseDate`.
    func refreshed(by response: HTTPURLResponse, requestDate: Date, responseDate: Date) -> CachedResponse {
        var headers = self.headers
        for (name, value) in Self.fields(of: response)
        where !Self.bodyFields.contains(name.lowercased()) {
            headers = headers.filter { $0.key.caseInsensitiveCompare(name) != .orderedSame }
            headers[name] = value
        }
        return CachedResponse(
            url: url, statusCode: statusCode, headers: headers, body: body, requestDate: requestDate,
            responseDate: responseDate, varying: varying)
    }

    /// The answer to serve for `request` at `now`: its status and fields with its `Age`.
    func response(for request: URLRequest, at now: Date, status: Int? = nil) throws -> HTTPURLResponse {
        let age = String(Int(age(at: now).rounded(.down)))
        let (url, status) = (request.url ?? url, status ?? statusCode)
        if let last = served.withLock({ $0 }), last.age == age, last.response.statusCode == status, last.response.url == url {
            return last.response
        }
        var headers = self.headers
        if header("Age") != nil, let name = headers.keys.first(where: { $0.lowercased() == "age" }) { headers[name] = nil }
        headers["Age"] = age
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        else { throw EndpointKitError.invalidResponse(url: url) }
        served.withLock { $0 = (age, response) }
        return response
    }

    /// Fields a `304` or a `HEAD` answer does not replace: they describe the stored body, or
    /// only the connection.
    private static let bodyFields: Set<String> = [
        "content-length", "content-encoding", "content-type", "content-range", "transfer-encoding", "connection",
        "keep-alive", "te", "trailer", "upgrade", "proxy-connection",
    ]

    /// The header fields of `response` as strings.
    static func fields(of response: HTTPURLResponse) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return fields
    }

    /// The lowercased field names of a `Vary` value (`*` included, when there).
    static func varyingFields(_ vary: String?) -> [String] {
        (vary ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// A field value compared for `Vary`: list items trimmed of white space.
    static func normalized(_ value: String) -> String {
        value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ",")
    }

    /// An entity tag without its weakness mark, for the weak comparison of RFC 9110, 8.8.3.2.
    static func opaque(_ tag: String) -> String {
        let tag = tag.trimmingCharacters(in: .whitespaces)
        return tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }
}
