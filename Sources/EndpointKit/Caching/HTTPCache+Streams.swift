import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A streamed call through the cache, for endpoints that ask for it with a `cachePolicy` (the
/// OpenAPI transport's operations do; Server-Sent Events and other streams give none and pass
/// by): a `GET` may be answered from the store, an unsafe method outdates what is stored.
extension HTTPCache {
    /// Opens a stream.
    typealias Open = @Sendable (Outgoing) async throws -> ResponseStream

    /// The largest streamed body kept: a longer one passes through unstored.
    static let streamedBodyLimit = 1 << 20

    /// Answers a streamed call. For a `GET`, a stored answer the rules allow is served as a one-chunk
    /// stream; otherwise the origin's answer streams through (asked conditionally when a stored
    /// answer has validators, its `304` serving that answer), and a storable one is kept once
    /// its body has been read to the end.
    func stream(_ outgoing: Outgoing, open: Open, background: @escaping Send) async throws -> ResponseStream {
        let request = outgoing.request
        let method = (request.httpMethod ?? "GET").uppercased()
        guard let url = request.url, method == "GET" else {
            let stream = try await open(outgoing)
            // A successful unsafe request outdates what is stored for its URL (RFC 9111, 4.4).
            if let url = request.url, !["HEAD", "OPTIONS", "TRACE"].contains(method), (200..<400).contains(stream.response.statusCode) {
                await invalidate(url, after: stream.response)
            }
            return stream
        }
        let directives = CacheControl(request.field(named: "Cache-Control"), pragma: request.field(named: "Pragma"))
        guard !directives.noStore, request.field(named: "Range") == nil, !Self.isConditional(request) else {
            return try await open(outgoing)
        }
        let key = Self.key(for: url)
        let policy = outgoing.cachePolicy ?? .useProtocolRules
        count { $0.requests += 1 }
        let stored = policy == .reload ? nil : await store.responses(for: key).filter { $0.matches(request) }.max {
            $0.responseDate < $1.responseDate
        }
        let now = clock()
        switch Self.decide(stored, directives: directives, policy: policy, now: now) {
        case .serve(let stored, let outcome):
            count { $0.add(outcome) }
            return try Self.stream(of: Self.serve(stored, outcome, for: request, at: now), outcome)
        case .serveAndRevalidate(let stored):
            revalidateInBackground(stored, key: key, outgoing, directives: directives, send: background)
            count { $0.add(.stale(.revalidatingInBackground)) }
            return try Self.stream(of: Self.serve(stored, .stale(.revalidatingInBackground), for: request, at: now), .stale(.revalidatingInBackground))
        case .unavailable:
            throw EndpointKitError.notCached(url: url)
        case .fetch(let stored):
            var sent = outgoing
            let validated = stored.flatMap { $0.hasValidators ? $0 : nil }
            validated?.header("ETag").map { sent.request.setField($0, named: "If-None-Match") }
            validated?.header("Last-Modified").map { sent.request.setField($0, named: "If-Modified-Since") }
            count { $0.networkRequests += 1 }
            let requestDate = clock()
            var stream = try await open(validated == nil ? outgoing : sent)
            stream.cacheOutcome = .miss
            let responseDate = clock()
            if stream.response.statusCode == 304, let validated, validated.isSelected(by: stream.response) {
                let refreshed = validated.refreshed(by: stream.response, requestDate: requestDate, responseDate: responseDate)
                await store.store(refreshed, for: key)
                count { $0.add(.revalidated) }
                return try Self.stream(of: Self.serve(refreshed, .revalidated, for: request, at: responseDate), .revalidated)
            }
            count { $0.add(.miss) }
            let head = ReceivedResponse(response: stream.response, body: Data(), fileURL: nil)
            guard stream.response.statusCode != 304,
                Self.storable(head, for: request, directives: directives, requestDate: requestDate, responseDate: responseDate) != nil,
                (stream.response.expectedContentLength < 0 || stream.response.expectedContentLength <= Self.streamedBodyLimit)
            else { return stream }
            return keeping(stream, key: key, request: request, directives: directives, requestDate: requestDate, responseDate: responseDate)
        }
    }

    /// `stream`, whose body is kept as it is read and stored when it ends whole (not past
    /// ``streamedBodyLimit``, not failed, not left early).
    private func keeping(
        _ stream: ResponseStream, key: String, request: URLRequest, directives: CacheControl, requestDate: Date, responseDate: Date
    ) -> ResponseStream {
        let reader = StreamRecorder(stream.makeAsyncIterator(), limit: Self.streamedBodyLimit)
        let response = stream.response
        let chunks = AsyncThrowingStream<Data, any Error> { [self] in
            guard let chunk = try await reader.next() else {
                if let body = reader.recorded {
                    let received = ReceivedResponse(response: response, body: body, fileURL: nil)
                    if let answer = Self.storable(received, for: request, directives: directives, requestDate: requestDate, responseDate: responseDate) {
                        await store.store(answer, for: key)
                    }
                }
                return nil
            }
            return chunk
        }
        var kept = ResponseStream(response: response, chunks: chunks)
        kept.cacheOutcome = .miss
        return kept
    }

    /// A served answer as a stream of one chunk.
    private static func stream(of received: ReceivedResponse, _ outcome: CacheOutcome) -> ResponseStream {
        let body = received.body
        let (chunks, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        if !body.isEmpty { continuation.yield(body) }
        continuation.finish()
        var stream = ResponseStream(response: received.response, chunks: chunks)
        stream.cacheOutcome = outcome
        return stream
    }
}
