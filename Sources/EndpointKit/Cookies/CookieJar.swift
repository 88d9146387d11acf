import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Cookies kept in memory by RFC 6265's rules: create one per client, or one per user or
/// tenant on a server, so no two share a session. Nothing is written to disk.
///
/// A cookie is sent back to its host (or, with a `Domain` attribute, to that domain and its
/// subdomains), to its path and below, over `https` only when `Secure`, until it expires
/// (`Max-Age`, else `Expires`; neither keeps it for the jar's life). A cookie for a domain the
/// setting host is not part of, for a domain of one label (`com`) other than the host itself,
/// or for a part of an IP address is refused; a newer cookie with the same name, domain and path
/// replaces the older, and an expired one deletes it. At most ``capacity`` are kept, the
/// oldest dropped first.
public final class CookieJar: CookieStore {
    /// The most cookies kept.
    public let capacity: Int
    private let stored = Locked<[Entry]>([])
    private let now: @Sendable () -> Date

    private struct Entry {
        let cookie: HTTPCookie
        let domain: String
        let hostOnly: Bool
        let path: String
        let expires: Date?

        func matches(name: String, domain: String, path: String) -> Bool {
            cookie.name == name && self.domain == domain && self.path == path
        }
    }

    /// Creates an empty jar that keeps up to `capacity` cookies.
    public convenience init(capacity: Int = 1_000) {
        self.init(capacity: capacity, now: { Date() })
    }

    /// Creates an empty jar whose time comes from `now` (for tests of expiry).
    package init(capacity: Int, now: @escaping @Sendable () -> Date) {
        self.capacity = capacity
        self.now = now
    }

    /// Every cookie the jar holds that has not expired.
    public var cookies: [HTTPCookie] {
        let now = now()
        return stored.withLock { $0.filter { $0.expires.map { $0 > now } ?? true }.map(\.cookie) }
    }

    /// Forgets every cookie.
    public func removeAll() {
        stored.withLock { $0.removeAll() }
    }

    /// The cookies for `url`, those with longer paths first.
    public func cookiesToSend(to url: URL) -> [HTTPCookie] {
        guard let host = url.host?.lowercased() else { return [] }
        let secure = ["https", "wss"].contains(url.scheme?.lowercased() ?? "")
        let path = url.path.isEmpty ? "/" : url.path
        let now = now()
        return stored.withLock { entries in
            entries.removeAll { $0.expires.map { $0 <= now } ?? false }
            return entries.filter { entry in
                (entry.hostOnly ? host == entry.domain : CookieDomain.host(host, matches: entry.domain))
                    && Self.path(path, matches: entry.path) && (secure || !entry.cookie.isSecure)
            }
            .sorted { $0.path.count > $1.path.count }.map(\.cookie)
        }
    }

    /// Parses each `Set-Cookie` field and keeps, replaces or deletes cookies by RFC 6265's rules.
    public func keepCookies(setBy fields: [String], from url: URL) {
        guard let host = url.host?.lowercased() else { return }
        let now = now()
        for field in fields {
            guard let parsed = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": field], for: url).first else { continue }
            let attributes = Self.attributes(of: field)
            let hostOnly = attributes["domain"]?.isEmpty ?? true
            let domain = hostOnly ? host : parsed.domain.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))
            guard hostOnly || CookieDomain.host(host, mayScopeTo: domain) else { continue }
            let path = attributes["path"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? Self.defaultPath(of: url)
            let expires = Self.expiry(maxAge: attributes["max-age"], parsed, now: now)
            var properties: [HTTPCookiePropertyKey: Any] = [
                .name: parsed.name, .value: parsed.value, .domain: hostOnly ? domain : "." + domain, .path: path,
            ]
            if parsed.isSecure { properties[.secure] = "TRUE" }
            if let expires { properties[.expires] = expires }
            guard let cookie = HTTPCookie(properties: properties) else { continue }
            let entry = Entry(cookie: cookie, domain: domain, hostOnly: hostOnly, path: path, expires: expires)
            stored.withLock { entries in
                entries.removeAll { $0.matches(name: parsed.name, domain: domain, path: path) }
                if let expires, expires <= now { return }
                entries.append(entry)
                if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
            }
        }
    }

    /// When a cookie set at `now` expires: after its `Max-Age` attribute's seconds (`maxAge`),
    /// else at its `Expires` date (`parsed`'s, as Foundation read it); `nil` for neither.
    /// Foundation on Linux reads no `Max-Age`, so every store reads it here.
    static func expiry(maxAge: String?, _ parsed: HTTPCookie, now: Date) -> Date? {
        maxAge.flatMap { Int($0) }.map { now.addingTimeInterval(TimeInterval($0)) } ?? parsed.expiresDate
    }

    /// The attributes after the cookie's name and value, by lowercased name.
    static func attributes(of field: String) -> [String: String] {
        var attributes: [String: String] = [:]
        for part in field.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard let name = pair.first?.trimmingCharacters(in: .whitespaces).lowercased() else { continue }
            attributes[name] = pair.count > 1 ? pair[1].trimmingCharacters(in: .whitespaces) : ""
        }
        return attributes
    }

    /// RFC 6265 5.1.4: the cookie's path is the request's, or a prefix of it ending at a `/`.
    private static func path(_ path: String, matches cookiePath: String) -> Bool {
        path == cookiePath
            || (path.hasPrefix(cookiePath) && (cookiePath.hasSuffix("/") || path.dropFirst(cookiePath.count).hasPrefix("/")))
    }

    /// RFC 6265 5.1.4: the request path up to, not including, its last `/`; `/` if none.
    private static func defaultPath(of url: URL) -> String {
        let path = url.path
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
