import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionClient {
    /// The cookie store the client keeps cookies in itself, through ``CookieTransport``, or
    /// `nil` when the session does (or nothing does): `storage` when it is not Foundation's.
    ///
    /// On Linux always the client, with `storage` or else the configuration's own storage when
    /// the configuration both sends and accepts cookies (as by default). Foundation there reads
    /// every line of every response head for cookies, through `NSString`, on the queue that
    /// runs all of a session's transfers: a large part of a small GET's CPU (measured in the
    /// Linux notes). The client reads only the `Set-Cookie` fields, once a response.
    static func cookiesKeptByTheClient(
        _ storage: (any CookieStore)?, configuration: URLSessionConfiguration
    ) -> (any CookieStore)? {
        #if canImport(FoundationNetworking)
            if let storage { return storage }
            guard configuration.httpShouldSetCookies, configuration.httpCookieAcceptPolicy != .never else { return nil }
            return configuration.httpCookieStorage
        #else
            return storage is HTTPCookieStorage ? nil : storage
        #endif
    }
}
