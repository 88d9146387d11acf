import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The steps an attempt is made of, each written once for every kind of call.
extension Pipeline {
    /// Sends `outgoing` with `hop`, and again to each redirect's target, as ``Redirect`` says
    /// (at most ``Redirect/limit`` times, then ``EndpointKitError/redirectRefused(url:reason:)``);
    /// `hop` returns what it made of the answer, whose response head `head` reads. The record
    /// keeps the last request sent.
    nonisolated(nonsending) func followingRedirects<Answer>(
        _ outgoing: Outgoing, record: inout AttemptRecord, events: inout CallEvents,
        head: (Answer) -> ResponseHead, hop: nonisolated(nonsending) (Outgoing) async throws -> Answer
    ) async throws -> Answer {
        let answer = try await hop(outgoing)
        guard Redirect.isRedirect(head(answer).statusCode) else { return answer }
        return try await redirecting(from: answer, of: outgoing, record: &record, events: &events, head: head, hop: hop)
    }

    /// ``followingRedirects(_:record:events:head:hop:)`` once `answer` to `outgoing` has a
    /// redirect's status. Apart, so that its values take room in a call's task only when a
    /// call is redirected.
    @inline(never)
    nonisolated(nonsending) private func redirecting<Answer>(
        from answer: Answer, of outgoing: Outgoing, record: inout AttemptRecord, events: inout CallEvents,
        head: (Answer) -> ResponseHead, hop: nonisolated(nonsending) (Outgoing) async throws -> Answer
    ) async throws -> Answer {
        var (answer, outgoing, hops) = (answer, outgoing, 0)
        while true {
            let head = head(answer)
            guard Redirect.isRedirect(head.statusCode),
                let next = try Self.redirect(after: head, of: outgoing, hops: hops, record: &record, events: &events)
            else { return answer }
            (outgoing, hops) = (next, hops + 1)
            answer = try await hop(outgoing)
        }
    }

    /// What is sent after `head` answered `outgoing`, hop number `hops` of the attempt (`nil`:
    /// the answer is kept). Apart from ``redirecting(from:of:record:events:head:hop:)``, so that
    /// its values are not kept in that loop's frame while the next hop is waited for.
    @inline(never)
    private static func redirect(
        after head: ResponseHead, of outgoing: Outgoing, hops: Int, record: inout AttemptRecord, events: inout CallEvents
    ) throws -> Outgoing? {
        guard let next = try Redirect.replay(after: head.response, of: outgoing) else { return nil }
        events.redirected(head.response, to: next.request)
        record.request = next.request
        guard hops < Redirect.limit else {
            throw EndpointKitError.redirectRefused(url: next.request.url, reason: "more than \(Redirect.limit) redirects")
        }
        return next
    }

    /// Writes a multipart form to a temporary file and makes it the body; returns the file.
    static func write(_ form: MultipartFormData, into outgoing: inout Outgoing) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("EndpointKit-\(UUID().uuidString).multipart")
        do {
            try form.write(to: url)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        outgoing.body = .file(url)
        outgoing.request.setField(form.contentType, named: "Content-Type")
        return url
    }

    /// The attempt's time limit within the call's `deadline`: the smaller of its own and the
    /// time left. Throws ``EndpointKitError/timedOut(url:limit:)`` (naming the time the call
    /// had, `elapsed`) once none is left.
    static func limit(_ outgoing: Outgoing, by deadline: CallDeadline, elapsed: TimeInterval) throws -> TimeInterval {
        let remaining = deadline.remaining
        guard remaining > 0 else { throw EndpointKitError.timedOut(url: outgoing.request.url, limit: elapsed) }
        return min(outgoing.timeout ?? remaining, remaining)
    }

    /// `error`, or, if it is the timeout of an attempt that the call's `deadline` cut short,
    /// that timeout naming the time the call had from its start (its attempts and waits), the
    /// time its deadline gave it, not what was left to its last attempt.
    static func namingTheDeadline(_ error: any Error, _ deadline: CallDeadline?) -> any Error {
        guard let deadline, deadline.hasPassed, case EndpointKitError.timedOut(let url, _) = error, let call = CallContext.current
        else { return error }
        return EndpointKitError.timedOut(url: url, limit: call.elapsed)
    }

    /// `outgoing` sending `request` (as the adapters left it), without the framing headers the
    /// transport sets itself: a manual `Content-Length` next to a body makes Foundation on
    /// Linux send an invalid request that hangs.
    static func prepared(_ outgoing: Outgoing, sending request: URLRequest) -> Outgoing {
        var outgoing = outgoing
        outgoing.request = request
        // A request is changed, so copied, only when it carries one. The names are compared
        // here: Foundation's lookup by name lowercases every field's name for each name asked.
        guard let fields = outgoing.request.allHTTPHeaderFields, fields.keys.contains(where: isFraming) else { return outgoing }
        outgoing.request.allHTTPHeaderFields = fields.filter { !isFraming($0.key) }
        return outgoing
    }

    /// Whether `name` is `Content-Length` or `Transfer-Encoding`, in any case.
    private static func isFraming(_ name: String) -> Bool {
        HTTPToken.sameName(name, "Content-Length") || HTTPToken.sameName(name, "Transfer-Encoding")
    }

    /// Wraps a `DecodingError` with the type, URL, status and body it failed on. The request's
    /// `url` is read only then: reading it costs a bridge of the request in every call.
    static func decode<Content>(
        _ type: Content.Type, url: @autoclosure () -> URL?, _ received: ReceivedResponse, _ decode: () throws -> Content
    ) throws -> Content {
        do {
            return try decode()
        } catch let error as DecodingError {
            throw EndpointKitError.decodingFailed(
                DecodingFailure(
                    type: String(describing: Content.self), url: received.response.url ?? url(),
                    statusCode: received.response.statusCode,
                    contentType: received.response.value(forHTTPHeaderField: "Content-Type"),
                    underlying: error, body: received.body))
        }
    }

    /// Passes on only reports that move forward, so progress never goes back when a redirect
    /// or a retry sends the body again. Each report can cancel the call: after the handler
    /// called ``TransferProgress/cancel()``, the transport is told to stop by a throw.
    static func monotonic(_ handler: @escaping @Sendable (TransferProgress) -> Void) -> ProgressSink {
        let last = Locked((upload: Int64(-1), download: Int64(-1)))
        let cancellation = ProgressCancellation()
        return { update in
            guard !cancellation.isRequested else { throw CancellationError() }
            let forward = last.withLock { last in
                let before = update.direction == .upload ? last.upload : last.download
                guard update.completedBytes >= before else { return false }
                if update.direction == .upload { last.upload = update.completedBytes } else { last.download = update.completedBytes }
                return true
            }
            if forward { handler(update.cancelling(with: cancellation)) }
            if cancellation.isRequested { throw CancellationError() }
        }
    }
}
