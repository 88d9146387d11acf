import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RFC 9111's decisions, apart from any I/O: whether a stored answer may be served, must be
/// revalidated, or cannot be used; whether a received answer may be stored.
extension HTTPCache {
    /// What to do with a request, given what is stored for it.
    enum Decision {
        /// Serve the stored answer; nothing is sent.
        case serve(CachedResponse, CacheOutcome)
        /// Serve the stale stored answer now, and revalidate it in the background.
        case serveAndRevalidate(CachedResponse)
        /// Ask the origin: conditionally when the stored answer (if any) has validators.
        case fetch(CachedResponse?)
        /// Nothing usable is stored, and the origin must not be asked.
        case unavailable
    }

    /// The decision for a request with `directives` under `policy`, at `now`.
    static func decide(_ stored: CachedResponse?, directives: CacheControl, policy: CachePolicy, now: Date) -> Decision {
        let offline = policy == .onlyIfCached || directives.onlyIfCached
        guard let stored else { return offline ? .unavailable : .fetch(nil) }
        let control = stored.control
        let age = stored.age(at: now)
        let lifetime = stored.freshnessLifetime(control)
        let fresh =
            lifetime > age && !control.noCache && !directives.noCache
            && (directives.maxAge.map { age <= $0 } ?? true)
            && (directives.minFresh.map { lifetime - age >= $0 } ?? true)
        if fresh { return .serve(stored, .hit) }
        // must-revalidate and no-cache forbid serving it stale, whatever the caller accepts.
        let mayServeStale = !control.mustRevalidate && !control.noCache
        let accepted = offline || policy == .returnStaleElseLoad || (directives.maxStale.map { age - lifetime <= $0 } ?? false)
        if mayServeStale, accepted { return .serve(stored, .stale(.acceptedByCaller)) }
        if offline { return .unavailable }
        if mayServeStale, !directives.noCache, let window = control.staleWhileRevalidate, age - lifetime <= window {
            return .serveAndRevalidate(stored)
        }
        return .fetch(stored)
    }

    /// Whether `stored` may be served because the origin failed (RFC 5861's `stale-if-error`,
    /// from the answer or the request), at `now`.
    static func mayServe(_ stored: CachedResponse, onErrorWith directives: CacheControl, at now: Date) -> Bool {
        let control = stored.control
        guard !control.mustRevalidate, !control.noCache,
            let window = [control.staleIfError, directives.staleIfError].compactMap({ $0 }).max()
        else { return false }
        return stored.age(at: now) - stored.freshnessLifetime(control) <= window
    }

    /// The answer to keep from `received`, the answer to `request`, or `nil` if it may not be
    /// stored (RFC 9111, 3) or could never be used (no freshness, no validator, no
    /// `stale-if-error`).
    static func storable(
        _ received: ReceivedResponse, for request: URLRequest, directives: CacheControl, requestDate: Date, responseDate: Date
    ) -> CachedResponse? {
        let status = received.response.statusCode
        guard received.fileURL == nil, (200...599).contains(status), status != 206, status != 304, !directives.noStore,
            let url = received.response.url ?? request.url
        else { return nil }
        let headers = CachedResponse.fields(of: received.response)
        var answer = CachedResponse(
            url: url, statusCode: status, headers: headers, body: received.body, requestDate: requestDate,
            responseDate: responseDate, varying: [:])
        let vary = CachedResponse.varyingFields(answer.header("Vary"))
        let control = answer.control
        guard !vary.contains("*"), !control.noStore else { return nil }
        if request.field(named: "Authorization") != nil,
            !(control.isPublic || control.sharedMaxAge != nil || control.mustRevalidate)
        {
            return nil
        }
        let allowed =
            control.isPublic || control.isPrivate || control.maxAge != nil || answer.header("Expires") != nil
            || CachedResponse.heuristicallyCacheable.contains(status)
        guard allowed, answer.freshnessLifetime(control) > 0 || answer.hasValidators || control.staleIfError != nil else {
            return nil
        }
        if !vary.isEmpty {
            var varying: [String: String] = [:]
            for name in vary { varying[name] = request.field(named: name).map(CachedResponse.normalized) }
            answer = CachedResponse(
                url: url, statusCode: status, headers: headers, body: received.body, requestDate: requestDate,
                responseDate: responseDate, varying: varying)
        }
        return answer
    }

    /// Whether the caller's own conditional `request` is answered "not modified" by `stored`
    /// (RFC 9110, 13.2.2: `If-None-Match` first, else `If-Modified-Since`).
    static func isNotModified(_ stored: CachedResponse, for request: URLRequest) -> Bool {
        if let tags = request.field(named: "If-None-Match") {
            guard let tag = stored.header("ETag") else { return tags.trimmingCharacters(in: .whitespaces) == "*" }
            return tags.split(separator: ",").contains { candidate in
                let candidate = candidate.trimmingCharacters(in: .whitespaces)
                return candidate == "*" || CachedResponse.opaque(candidate) == CachedResponse.opaque(tag)
            }
        }
        guard let since = request.field(named: "If-Modified-Since").flatMap(HTTPDate.parse),
            let modified = (stored.header("Last-Modified") ?? stored.header("Date")).flatMap(HTTPDate.parse)
        else { return false }
        return modified <= since
    }

    /// Whether the caller made `request` conditional itself.
    static func isConditional(_ request: URLRequest) -> Bool {
        request.field(named: "If-None-Match") != nil || request.field(named: "If-Modified-Since") != nil
    }
}
