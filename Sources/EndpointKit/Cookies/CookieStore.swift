import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a client keeps the cookies responses set, and finds those to send back.
///
/// ``CookieJar`` keeps them in memory, one jar per client (or per user, on a server);
/// Foundation's `HTTPCookieStorage` conforms too, so `HTTPCookieStorage.shared` keeps them as
/// `URLSession` does (on Linux it is also a file that outlives the process).
public protocol CookieStore: Sendable {
    /// The cookies to send with a request to `url`.
    func cookiesToSend(to url: URL) -> [HTTPCookie]

    /// Keeps the cookies a response from `url` set: `fields` are its `Set-Cookie` values, one
    /// per field (joined, their `Expires` dates would read as separators).
    func keepCookies(setBy fields: [String], from url: URL)
}

extension HTTPCookieStorage: CookieStore {
    /// The stored cookies for `url`, by Foundation's rules.
    public func cookiesToSend(to url: URL) -> [HTTPCookie] {
        cookies(for: url) ?? []
    }

    /// Parses each field with Foundation and stores the cookies, except one for a domain the
    /// host may not set it for (see ``CookieJar``): Foundation on Linux keeps a cookie for
    /// `Domain=com` and sends it to every `.com` host. A cookie that has expired on arrival
    /// deletes the one it names, as a server's logout means: Foundation on Linux ignores
    /// `Max-Age` (and then `Expires` too), so it kept `Max-Age=0` cookies and sent them, and
    /// kept `Max-Age=60` ones for ever.
    public func keepCookies(setBy fields: [String], from url: URL) {
        guard let host = url.host?.lowercased() else { return }
        let now = Date()
        var kept: [HTTPCookie] = []
        for field in fields {
            let maxAge = CookieJar.attributes(of: field)["max-age"]
            for cookie in HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": field], for: url) {
                let domain = cookie.domain.lowercased()
                guard !domain.hasPrefix(".") || CookieDomain.host(host, mayScopeTo: String(domain.dropFirst())) else { continue }
                let expires = CookieJar.expiry(maxAge: maxAge, cookie, now: now)
                if let expires, expires <= now {
                    let named = (cookies ?? []).filter { ($0.name, $0.domain, $0.path) == (cookie.name, cookie.domain, cookie.path) }
                    named.forEach(deleteCookie)
                } else if let expires, expires != cookie.expiresDate, var properties = cookie.properties {
                    properties[.expires] = expires
                    properties[.maximumAge] = nil
                    HTTPCookie(properties: properties).map { kept.append($0) }
                } else {
                    kept.append(cookie)
                }
            }
        }
        if !kept.isEmpty { setCookies(kept, for: url, mainDocumentURL: nil) }
    }
}
