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
    /// `Domain=com` and sends it to every `.com` host.
    public func keepCookies(setBy fields: [String], from url: URL) {
        guard let host = url.host?.lowercased() else { return }
        let cookies = fields.flatMap { HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": $0], for: url) }.filter { cookie in
            let domain = cookie.domain.lowercased()
            return !domain.hasPrefix(".") || CookieDomain.host(host, mayScopeTo: String(domain.dropFirst()))
        }
        if !cookies.isEmpty { setCookies(cookies, for: url, mainDocumentURL: nil) }
    }
}
