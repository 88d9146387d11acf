import AsyncHTTPClient
@_spi(Transport) @_spi(Locking) import EndpointKit
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sending a request: through AsyncHTTPClient's delegate API when its body is in memory and its
/// upload is not counted (see ``ResponseReceiver``), else its `async` API; again when a pooled
/// connection turned out closed.
extension AsyncHTTPClientTransport {
    /// Sends the request through AsyncHTTPClient's `async` API and waits for the response head.
    nonisolated(nonsending) func execute(
        _ outgoing: Outgoing, _ produced: ProducedBodyReader?, url: URL, progress: ProgressSink?
    ) async throws -> HTTPClientResponse {
        try await sentAgainIfClosed(outgoing, url: url) {
            try await engine(sendingBody: outgoing.carriesBody, to: url).execute(
                makeRequest(outgoing, produced, url: url, progress: progress), deadline: .distantFuture, logger: logger)
        }
    }

    /// Sends `outgoing` through AsyncHTTPClient's delegate API, with `bytes` as its body; its
    /// body's reader waits at most `idleLimit` for each chunk, or reads it whole, up to
    /// `wholeLimit` bytes; its response fails with a timeout past `timeLimit`'s deadline.
    func receive(
        _ outgoing: Outgoing, _ bytes: Data?, url: URL, idleLimit: TimeInterval?, wholeLimit: Int?,
        timeLimit: (deadline: NIODeadline, seconds: TimeInterval)?
    ) throws -> ResponseReceiver {
        let request = try HTTPClient.Request(
            url: url, method: .init(rawValue: outgoing.request.httpMethod ?? "GET"), headers: headers(for: outgoing, url: url),
            body: bytes.map { .bytes($0) })
        let receiver = ResponseReceiver(url: url, idleLimit: idleLimit, wholeLimit: wholeLimit, timeLimit: timeLimit)
        let eventLoop: HTTPClient.EventLoopPreference = calls.count == 1 ? .delegate(on: soloEventLoop) : .indifferent
        let task = engine(sendingBody: bytes != nil, to: url).execute(
            request: request, delegate: receiver, eventLoop: eventLoop, deadline: nil, logger: logger)
        // An owned `HTTPClient` may have been shut down only after this client began to close;
        // a borrowed one by its owner at any time.
        let closing = !calls.isOpen
        receiver.attach(task, watching: closing, limits: timeLimits)
        if !closing { silentCalls?.note(receiver) }
        return receiver
    }

    /// The `HTTPClient` that sends a request to `url`: ``uploadClient`` for an `https` request
    /// with a body, when there is one.
    private func engine(sendingBody: Bool, to url: URL) -> HTTPClient {
        guard sendingBody, let uploadClient, url.scheme?.lowercased() == "https" else { return httpClient }
        return uploadClient
    }

    /// Whether `outgoing` goes through the delegate API: its body is in memory (or absent), and
    /// its upload is not counted (no `progress`).
    static func viaDelegate(_ outgoing: Outgoing, progress: ProgressSink?) -> Bool {
        progress == nil && bytesInMemory(of: outgoing) != nil
    }

    /// `outgoing`'s body when it is bytes in memory, `.some(nil)` when it has none, and `nil`
    /// when it is read from elsewhere (a file, a stream, a producer).
    static func bytesInMemory(of outgoing: Outgoing) -> Data?? {
        switch outgoing.body {
        case .data(let data): data
        case nil where outgoing.request.httpBodyStream == nil: .some(outgoing.request.httpBody)
        default: nil
        }
    }

    /// Runs `attempt` (a send and the wait for its answer); again, while the client is not
    /// shutting down and its body can be sent again, if nothing of it was sent, whatever its
    /// method (up to ``mostSends`` sends), or once more if it is idempotent (or carries an
    /// `Idempotency-Key`) and the connection, or its HTTP/2 stream, closed or reset before any
    /// answer: typically a pooled connection the server had just dropped as idle, as servers
    /// with short keep-alive timeouts do (a server that drops all its idle connections at once
    /// may leave several such in the pool), or an HTTP/2 connection the server ended with a
    /// GOAWAY (nginx does after 1,000 requests). RFC 9110 (9.2.2) allows the second; libcurl
    /// and browsers do it. A request that was sent is not sent again while sending again to
    /// its server is paused (``ResendPause``): a send again that also closed before any answer
    /// pauses it. One that was not sent costs the server nothing.
    nonisolated(nonsending) func sentAgainIfClosed<T>(
        _ outgoing: Outgoing, url: URL, _ attempt: nonisolated(nonsending) () async throws -> T
    ) async throws -> T {
        var sends = 1
        while true {
            do {
                return try await attempt()
            } catch where calls.isOpen && outgoing.canReplayBody && !Task.isCancelled
                && mayBeSentAgain(outgoing, to: url, after: error, sends: sends)
            {
                sends += 1
            } catch where sends > 1 && Self.closedBeforeAnswering(error) {
                resends.pause(url)
                throw error
            }
        }
    }

    /// The most times a request is sent when nothing of it was sent before.
    static let mostSends = 4

    /// Whether `outgoing`, whose `sends`th send to `url` failed with `error`, may be sent again
    /// (see ``sentAgainIfClosed(_:url:_:)``): if nothing of it was sent, up to ``mostSends``
    /// sends; if it was cut off before any answer, and is idempotent, once, unless sending
    /// again to that server is paused.
    private func mayBeSentAgain(_ outgoing: Outgoing, to url: URL, after error: any Error, sends: Int) -> Bool {
        if Self.unsent(error) { return sends < Self.mostSends }
        let request = outgoing.request
        return sends == 1 && Self.closedBeforeAnswering(error)
            && (EndpointKit.HTTPMethod(request.httpMethod ?? "GET").isIdempotent || request.carriesIdempotencyKey)
            && resends.allowsResend(to: url)
    }

    /// Whether `error` says that not a byte of the request was written: AsyncHTTPClient fails
    /// it with `ChannelError.ioOnClosedChannel` when the connection its pool handed out had
    /// closed before the request was started on it, and, while neither the caller nor a
    /// shutdown of this client has cancelled it, with `HTTPClientError.cancelled` when the
    /// HTTP/2 connection it was given was closing after a GOAWAY; a server that refused its
    /// HTTP/2 stream did not process it (RFC 9113, 8.7).
    private static func unsent(_ error: any Error) -> Bool {
        if let error = error as? ChannelError, error == .ioOnClosedChannel { return true }
        if let error = error as? HTTPClientError, error == .cancelled { return true }
        if let error = error as? NIOHTTP2Errors.StreamClosed, error.errorCode == .refusedStream { return true }
        return false
    }

    /// Whether `error` says the connection, or its HTTP/2 stream, closed or reset before any
    /// response arrived. (A GOAWAY's streams the server will not answer end so.)
    private static func closedBeforeAnswering(_ error: any Error) -> Bool {
        if error is NIOHTTP2Errors.StreamClosed { return true }
        if let error = error as? HTTPClientError { return error == .remoteConnectionClosed }
        if let error = error as? HTTPParserError { return error == .invalidEOFState }
        if let error = error as? ChannelError { return error == .eof }
        if let error = error as? IOError { return [ECONNRESET, EPIPE].contains(error.errnoCode) }
        return false
    }

    /// Whether an answer with `statusCode` to `outgoing` refuses its upload: AsyncHTTPClient
    /// stops sending a body once a status of 300 or more has come. A server that refuses a
    /// body at its head (nginx's `413` over `client_max_body_size`, a proxy's refusal) may
    /// close the connection after its answer. AsyncHTTPClient then fails the request, without
    /// the rest of the answer, if part of the body was still waiting to be written (against
    /// nginx refusing a 4 MiB upload, 96 calls in 100). When none of the answer's body had
    /// come, the answer then ends there, empty, so that the caller gets the status, not a
    /// lost connection.
    static func refusesUpload(_ outgoing: Outgoing, statusCode: Int) -> Bool {
        statusCode >= 300 && outgoing.carriesBody
    }

    /// Whether `error` says the connection closed or was reset (see
    /// ``closedBeforeAnswering(_:)``), or was used once closed.
    static func cutOff(_ error: any Error) -> Bool {
        if let error = error as? ChannelError, error == .ioOnClosedChannel { return true }
        return closedBeforeAnswering(error)
    }

    private func makeRequest(
        _ outgoing: Outgoing, _ produced: ProducedBodyReader?, url: URL, progress: ProgressSink?
    ) throws -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .init(rawValue: outgoing.request.httpMethod ?? "GET")
        request.headers = headers(for: outgoing, url: url)
        let source: BodyChunks.Source?
        switch outgoing.body {
        case .data(let data): source = .stream { InputStream(data: data) }
        case .produced(let body): source = .produced(produced ?? ProducedBodyReader(body))
        case .file(let fileURL):
            source = .stream {
                guard let stream = InputStream(url: fileURL) else {
                    throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: fileURL.path])
                }
                return stream
            }
        case .stream(let make): source = .stream(make)
        case nil:
            if let data = outgoing.request.httpBody {
                source = .stream { InputStream(data: data) }
            } else if outgoing.request.httpBodyStream != nil {
                throw EndpointKitError.invalidRequest(
                    endpoint: "URLRequest.httpBodyStream",
                    underlying: CocoaError(.featureUnsupported, userInfo: [
                        NSLocalizedDescriptionKey: "AsyncHTTPClientClient cannot send a one-shot httpBodyStream; use UploadEndpointBody.stream"
                    ]))
            } else {
                source = nil
            }
        }
        if let source {
            let length = outgoing.bodyLength
            let sentSoFar = Locked<Int64>(0)
            let sent: @Sendable (Int) throws -> Void = { count in
                let total = sentSoFar.withLock { $0 += Int64(count); return $0 }
                try progress?(TransferProgress(direction: .upload, completedBytes: total, totalBytes: length))
            }
            let chunks = BodyChunks(source: source, sent: sent)
            request.body = .stream(chunks, length: length.map { .known($0) } ?? .unknown)
        }
        return request
    }

    /// The request's header fields: `outgoing`'s, the defaults it lacks, the URL's credentials
    /// and its cookies. AsyncHTTPClient refuses a field that cannot be sent before anything is
    /// sent (see ``namingField(_:of:)``).
    private func headers(for outgoing: Outgoing, url: URL) -> HTTPHeaders {
        let fields = outgoing.request.allHTTPHeaderFields ?? [:]
        // A request with no fields of its own (most GETs) starts from the defaults as they
        // were built once: nothing to look up or copy until the fields change.
        var headers = fields.isEmpty ? Self.defaultFields : Self.withDefaults(fields)
        headers.addCredentials(of: url)
        if let cookieStorage, outgoing.request.httpShouldHandleCookies, !headers.contains(name: "Cookie") {
            for (name, value) in HTTPCookie.requestHeaderFields(with: cookieStorage.cookiesToSend(to: url)) {
                headers.add(name: name, value: value)
            }
        }
        return headers
    }

    /// `fields`, and the defaults they lack.
    private static func withDefaults(_ fields: [String: String]) -> HTTPHeaders {
        var headers = HTTPHeaders()
        // Room for the defaults too: the fields' array grows once, not field by field.
        headers.reserveCapacity(fields.count + defaultFields.count)
        for (name, value) in fields { headers.add(name: name, value: value) }
        for (name, value) in defaultFields where !headers.contains(name: name) {
            headers.add(name: name, value: value)
        }
        return headers
    }

    /// What URLSession sends unless told otherwise; some APIs (GitHub's among them) refuse a
    /// request without a User-Agent. Not `Accept-Encoding`: an `HTTPClient` that decompresses
    /// asks for gzip itself, and one that does not could not read the answer.
    private static let defaultFields: HTTPHeaders = ["Accept": "*/*", "User-Agent": "EndpointKit (AsyncHTTPClient)"]
}
