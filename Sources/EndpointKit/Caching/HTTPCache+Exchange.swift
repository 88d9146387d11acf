import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request through the cache: look up, decide, ask the origin when needed, store.
extension HTTPCache {
    /// Sends one request to the origin.
    typealias Send = @Sendable (Outgoing) async throws -> ReceivedResponse

    /// Answers `outgoing`: from the store, from the origin through `send`, or both (a `304`).
    /// `background` sends the revalidations that `stale-while-revalidate` defers.
    func exchange(_ outgoing: Outgoing, send: Send, background: @escaping Send) async throws -> ReceivedResponse {
        let request = outgoing.request
        guard let url = request.url else { return try await send(outgoing) }
        let key = Self.key(for: url)
        switch request.httpMethod?.uppercased() ?? "GET" {
        case "GET":
            let directives = CacheControl(
                request.field(named: "Cache-Control"), pragma: request.field(named: "Pragma"))
            // A range is a part of the answer; no-store asks to keep no part of this exchange.
            guard !directives.noStore, request.field(named: "Range") == nil else { return try await send(outgoing) }
            count { $0.requests += 1 }
            let received = try await get(outgoing, key: key, directives: directives, send: send, background: background)
            count { $0.add(received.cacheOutcome) }
            return received
        case "HEAD":
            let requestDate = clock()
            let received = try await send(outgoing)
            if received.response.statusCode == 200 {
                await freshen(key, for: request, with: received.response, requestDate: requestDate, responseDate: clock())
            }
            return received
        case "OPTIONS", "TRACE":
            return try await send(outgoing)
        default:
            let received = try await send(outgoing)
            if (200..<400).contains(received.response.statusCode) { await invalidate(url, after: received.response) }
            return received
        }
    }

    private func get(
        _ outgoing: Outgoing, key: String, directives: CacheControl, send: Send, background: @escaping Send
    ) async throws -> ReceivedResponse {
        let request = outgoing.request
        let policy = outgoing.cachePolicy ?? .useProtocolRules
        let stored = policy == .reload ? nil : await store.responses(for: key).filter { $0.matches(request) }.max {
            $0.responseDate < $1.responseDate
        }
        let now = clock()
        switch Self.decide(stored, directives: directives, policy: policy, now: now) {
        case .serve(let stored, let outcome):
            return try Self.serve(stored, outcome, for: request, at: now)
        case .serveAndRevalidate(let stored):
            revalidateInBackground(stored, key: key, outgoing, directives: directives, send: background)
            return try Self.serve(stored, .stale(.revalidatingInBackground), for: request, at: now)
        case .fetch(let stored):
            return try await fetch(outgoing, key: key, stored: stored, directives: directives, send: send)
        case .unavailable:
            throw EndpointKitError.notCached(url: request.url)
        }
    }

    /// Asks the origin, conditionally when `stored` has validators (and the caller did not
    /// make the request conditional itself); stores the answer, or serves `stored` after a
    /// `304` or, as `stale-if-error` allows, after a failure.
    private func fetch(
        _ outgoing: Outgoing, key: String, stored: CachedResponse?, directives: CacheControl, send: Send
    ) async throws -> ReceivedResponse {
        let request = outgoing.request
        let callerConditional = Self.isConditional(request)
        var sent = outgoing
        let validated = stored.flatMap { $0.hasValidators && !callerConditional ? $0 : nil }
        if let validated {
            validated.header("ETag").map { sent.request.setField($0, named: "If-None-Match") }
            validated.header("Last-Modified").map { sent.request.setField($0, named: "If-Modified-Since") }
        }
        count { $0.networkRequests += 1 }
        let requestDate = clock()
        var received: ReceivedResponse
        do {
            received = try await send(sent)
        } catch {
            let now = clock()
            if let stored, !(Pipeline.normalized(error) is CancellationError), Self.mayServe(stored, onErrorWith: directives, at: now) {
                return try Self.serve(stored, .stale(.originFailed(status: nil)), for: request, at: now)
            }
            throw error
        }
        let responseDate = clock()
        let status = received.response.statusCode
        if status == 304, let stored, validated != nil || callerConditional, stored.isSelected(by: received.response) {
            let refreshed = stored.refreshed(by: received.response, requestDate: requestDate, responseDate: responseDate)
            await store.store(refreshed, for: key)
            guard !callerConditional else { return received.with(.revalidated) }
            return try Self.serve(refreshed, .revalidated, for: request, at: responseDate)
        }
        if status == 304, validated != nil {
            // The 304 speaks of another answer than the one stored: ask for the whole answer.
            return try await fetch(outgoing, key: key, stored: nil, directives: directives, send: send)
        }
        if (500...599).contains(status), let stored, Self.mayServe(stored, onErrorWith: directives, at: responseDate) {
            return try Self.serve(stored, .stale(.originFailed(status: status)), for: request, at: responseDate)
        }
        if let answer = Self.storable(received, for: request, directives: directives, requestDate: requestDate, responseDate: responseDate) {
            await store.store(answer, for: key)
        }
        return received.with(.miss)
    }

    /// Revalidates `stored` in a task of its own, unless it is being revalidated already.
    func revalidateInBackground(
        _ stored: CachedResponse, key: String, _ outgoing: Outgoing, directives: CacheControl, send: @escaping Send
    ) {
        let id = key + "\n" + stored.variant
        guard beginRevalidating(id) else { return }
        Task.detached { [self] in
            defer { endRevalidating(id) }
            _ = try? await fetch(outgoing, key: key, stored: stored, directives: directives, send: send)
        }
    }

    /// Refreshes the stored answers a `200` to `HEAD` speaks of (RFC 9111, 4.3.5); drops them
    /// when its validators show they are outdated.
    private func freshen(_ key: String, for request: URLRequest, with response: HTTPURLResponse, requestDate: Date, responseDate: Date) async {
        guard response.value(forHTTPHeaderField: "ETag") != nil || response.value(forHTTPHeaderField: "Last-Modified") != nil else {
            return
        }
        for stored in await store.responses(for: key) where stored.matches(request) {
            guard stored.isSelected(by: response) else { return await store.removeResponses(for: key) }
            await store.store(stored.refreshed(by: response, requestDate: requestDate, responseDate: responseDate), for: key)
        }
    }

    /// Drops what is stored for `url`, and for its `Location` and `Content-Location` on the same
    /// origin, after a successful unsafe request (RFC 9111, 4.4).
    func invalidate(_ url: URL, after response: HTTPURLResponse) async {
        await store.removeResponses(for: Self.key(for: url))
        for name in ["Location", "Content-Location"] {
            guard let value = response.value(forHTTPHeaderField: name),
                let target = URL(string: value, relativeTo: url)?.absoluteURL, Redirect.sameOrigin(url, target)
            else { continue }
            await store.removeResponses(for: Self.key(for: target))
        }
    }

    /// `stored` as the answer to `request` at `now`; a `304` without body when it is a fresh
    /// hit that the caller's own conditions find not modified.
    static func serve(_ stored: CachedResponse, _ outcome: CacheOutcome, for request: URLRequest, at now: Date) throws
        -> ReceivedResponse
    {
        let notModified = outcome == .hit && isConditional(request) && isNotModified(stored, for: request)
        let response = try stored.response(for: request, at: now, status: notModified ? 304 : nil)
        return ReceivedResponse(response: response, body: notModified ? Data() : stored.body, fileURL: nil).with(outcome)
    }
}
