import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPCookieStorage {
    /// Deletes the cookies kept for `url`'s host, or every cookie when `url` is `nil`. On Linux
    /// a shared or group storage is a file that outlives the test: a test empties what it uses
    /// before and after.
    func deleteCookies(for url: URL? = nil) {
        for cookie in (url.map { cookies(for: $0) } ?? cookies) ?? [] { deleteCookie(cookie) }
    }
}
