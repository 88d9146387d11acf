import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionClient {
    /// Sets up the cookie handling of `session` (the client's copy of its configuration) and
    /// returns the store the client keeps cookies in itself, through ``CookieTransport``, or
    /// `nil` when the session does (or nothing does).
    ///
    /// `storage`, when given, replaces the configuration's. Elsewhere than on Linux an
    /// `HTTPCookieStorage` goes to the session, and any other store to the client. On Linux
    /// every store goes to the client: the given one, or else, when the configuration both
    /// sends and accepts cookies (as by default), its own storage, but a ``CookieJar`` of the
    /// client's own in place of `HTTPCookieStorage.shared` (the default one). The shared storage
    /// there is a file that every program run from a folder of the same name reads and writes
    /// (`~/.local/share/release/.cookies.shared`), so one service's session cookies would go
    /// out with another's requests, and sit on disk (mode 644); it stays in use when it is given
    /// as `storage`. Foundation there also reads every line of every response head for cookies,
    /// through `NSString`, on the queue that runs all of a session's transfers: a large part of
    /// a small GET's CPU (measured in the Linux notes). The client reads only the `Set-Cookie`
    /// fields, once a response. Whenever the session keeps no cookies, its cookie handling is
    /// off, `.never` included: without it Foundation on Linux still reads every line, and drops
    /// what it finds.
    static func cookieStoreKeptByTheClient(
        _ storage: (any CookieStore)?, settingUp session: URLSessionConfiguration
    ) -> (any CookieStore)? {
        #if canImport(FoundationNetworking)
            let accepts = session.httpShouldSetCookies && session.httpCookieAcceptPolicy != .never
            let configured = accepts ? session.httpCookieStorage : nil
            let kept = storage ?? configured.map { $0 === HTTPCookieStorage.shared ? CookieJar() : $0 as any CookieStore }
        #else
            var kept = storage
            if let foundation = storage as? HTTPCookieStorage { (session.httpCookieStorage, kept) = (foundation, nil) }
        #endif
        if kept != nil || session.httpCookieStorage == nil {
            session.httpCookieStorage = nil
            session.httpShouldSetCookies = false
            session.httpCookieAcceptPolicy = .never
        }
        return kept
    }
}
