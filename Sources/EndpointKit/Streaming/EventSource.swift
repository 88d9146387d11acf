import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reconnecting Server-Sent Events over any ``Client`` (the `EventSource` behaviour).
enum EventSource {
    /// The endpoint, asking to resume after `lastEventID`.
    struct Resuming<Base: Endpoint>: Endpoint {
        typealias Content = Base.Content
        let base: Base
        let lastEventID: String?

        var timeout: TimeInterval? { base.timeout }

        func makeRequest() throws -> URLRequest {
            var request = try base.makeRequest()
            request.setField("text/event-stream", named: "Accept")
            // An empty ID (the stream's `id` field without a value) resets it: none is sent.
            if let lastEventID, !lastEventID.isEmpty { request.setField(lastEventID, named: "Last-Event-ID") }
            return request
        }

        func content(from response: URLResponse?, with body: Data) throws -> Base.Content {
            try base.content(from: response, with: body)
        }

        func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
            try base.validate(request, response: response, data: data)
        }
    }

    static func events<T: Endpoint>(
        from client: any Client, endpoint: T, reconnect: Bool
    ) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        let (events, continuation) = AsyncThrowingStream.makeStream(of: ServerSentEvent.self)
        let closing = client as? any ClosingAwareClient
        let task = Task {
            var lastEventID: String?
            var wait = 3_000
            // Connections in a row that failed: that could not connect, or broke before their
            // first event (a server that answers, then drops every connection, is down too).
            var failures = 0
            var reconnecting = false
            while !Task.isCancelled {
                do {
                    if reconnecting {
                        try await waitToReconnect(TimeInterval(delay(wait, afterFailures: failures)) / 1000, closing: closing)
                    }
                    let stream = try await client.stream(Resuming(base: endpoint, lastEventID: lastEventID))
                    // The server's way to say "no more": stop reconnecting.
                    if stream.response.statusCode == 204 { break }
                    if let refusal = await refusal(of: stream) { throw refusal }
                    var iterator = ServerSentEvents(stream, lastEventID: lastEventID).makeAsyncIterator()
                    var delivered = false
                    do {
                        while let event = try await iterator.next() {
                            (failures, delivered) = (0, true)
                            continuation.yield(event)
                        }
                    } catch where reconnect
                        && mayReconnect(
                            after: error, waiting: delay(iterator.reconnectionTime ?? wait, afterFailures: delivered ? 0 : failures + 1))
                    {
                        // The connection broke or went silent: reconnect like the end of the
                        // stream, after a longer wait if it had brought no event.
                        if !delivered { failures += 1 }
                    }
                    lastEventID = iterator.lastEventID ?? lastEventID
                    wait = iterator.reconnectionTime ?? wait
                    guard reconnect else { break }
                } catch where reconnect && mayReconnect(after: error, waiting: delay(wait, afterFailures: failures + 1)) {
                    // Could not connect, or no answer in time: try again after the wait.
                    failures += 1
                } catch {
                    continuation.finish(throwing: error is CancellationError || Task.isCancelled ? nil : error)
                    return
                }
                reconnecting = true
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return events
    }

    /// Waits `seconds` before reconnecting; as the client stops (when it tells, `closing`), the
    /// wait ends with ``EndpointKitError/clientInvalidated``, as the next connection would.
    private static func waitToReconnect(_ seconds: TimeInterval, closing: (any ClosingAwareClient)?) async throws {
        if let closing {
            try await closing.waitWhileOpen(seconds)
        } else {
            try await Task.sleep(nanoseconds: seconds.nanoseconds)
        }
    }

    /// The wait before reconnecting, in milliseconds: the server's reconnection time `wait`;
    /// after `failures` connections in a row that failed, that time (at least 250 ms) doubled
    /// for each failure after the first, up to 30 s (or `wait`, if longer). A feed whose server
    /// is down is not asked again at the pace the server set while it was up (the backoff
    /// WHATWG's `EventSource` allows after a failed attempt).
    static func delay(_ wait: Int, afterFailures failures: Int) -> Int {
        guard failures > 0, wait < 30_000 else { return wait }
        return min(max(wait, 250) << min(failures - 1, 8), 30_000)
    }

    /// Whether the events reconnect, after `wait` milliseconds, once a connection ended with
    /// `error`: when it broke or timed out (its head late, or the stream silent past the
    /// timeout), as browsers reconnect after a network error; not when the
    /// current ``CallDeadline`` would pass during the wait.
    static func mayReconnect(after error: any Error, waiting wait: Int) -> Bool {
        switch error {
        case EndpointKitError.transportFailed, EndpointKitError.timedOut:
            (CallDeadline.current?.remaining ?? .infinity) > TimeInterval(wait) / 1000
        default:
            false
        }
    }

    /// Why `stream` is not read as events, if it is not: its `Content-Type` is not
    /// `text/event-stream` (an error page, a login form, a proxy's answer). As WHATWG's
    /// `EventSource` does, the call then fails for good instead of reconnecting. The error
    /// carries the body's first chunk (at most ``HTTPFailure/bodyLimit`` bytes of it).
    static func refusal(of stream: ResponseStream) async -> EndpointKitError? {
        let response = stream.response
        guard response.mimeType?.trimmingCharacters(in: .whitespaces).lowercased() != "text/event-stream" else { return nil }
        // The first chunk only: it shows what came (an error page arrives whole, usually),
        // and a body that trickles or never ends is not waited for.
        var chunks = stream.makeAsyncIterator()
        let body = (try? await chunks.next()) ?? nil
        return .decodingFailed(
            DecodingFailure(
                type: "ServerSentEvent", url: response.url, statusCode: response.statusCode,
                contentType: response.value(forHTTPHeaderField: "Content-Type"), underlying: NotAnEventStream(), body: body ?? Data()))
    }

    /// The reason an answer that is not `text/event-stream` is not read as events.
    private struct NotAnEventStream: Error, CustomStringConvertible {
        var description: String { "the answer is not an event stream (text/event-stream)" }
    }
}
