/// RFC 6265's rules for a cookie's domain (5.1.3, 5.3), for every ``CookieStore`` the clients
/// keep cookies in: ``CookieJar``'s own, and Foundation's `HTTPCookieStorage`, which on Linux
/// keeps a cookie for `Domain=com` and sends it to every `.com` host.
enum CookieDomain {
    /// Whether `host` (lowercased) may set a cookie for `domain` (lowercased, without a leading
    /// dot): the host itself, or a domain of two labels or more that the host (a name, not an
    /// IP address) is under. Without a public suffix list, `co.uk` passes, as with curl.
    static func host(_ host: String, mayScopeTo domain: String) -> Bool {
        host == domain || (domain.contains(".") && self.host(host, matches: domain))
    }

    /// Whether a cookie for `domain` goes to `host`: the host is the domain, or a name (not an
    /// IP address) that ends with `.` and the domain.
    static func host(_ host: String, matches domain: String) -> Bool {
        !domain.isEmpty && (host == domain || (!isIPAddress(host) && host.hasSuffix("." + domain)))
    }

    /// Whether `host` is an IPv4 or IPv6 address, which has no subdomains.
    private static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || host.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
    }
}
