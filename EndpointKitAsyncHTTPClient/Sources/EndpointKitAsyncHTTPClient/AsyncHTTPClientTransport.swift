import AsyncHTTPClient
@_spi(Transport) @_spi(Locking) import EndpointKit
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends through an AsyncHTTPClient `HTTPClient`. Redirects are left to EndpointKit's pipeline
/// (so they behave as with `URLSessionClient`); the body is read as the caller consumes it, so
/// downloads have real back-pressure. A request whose body is in memory (or absent), and whose
/// upload is not counted, goes through AsyncHTTPClient's delegate API (see
/// ``ResponseReceiver``); any other through its `async` API.
struct AsyncHTTPClientTransport: Transport {
    let httpClient: HTTPClient
    /// Where an `https` request with a body goes instead, if anywhere: an HTTP/1.1 client
    /// beside an owned `httpClient` that may speak HTTP/2. On HTTP/2, AsyncHTTPClient (1.37)
    /// crashes the process, or leaves the call waiting, when the server answers before the
    /// body is all sent and then resets the stream, as nginx does for a `413` or a `return`
    /// (swift-server/async-http-client#922). A request without a body has none to be cut short.
    let uploadClient: HTTPClient?
    /// Where cookies are kept, if anywhere.
    let cookieStorage: (any CookieStore)?
    /// Where each call is noted, to be watched if it stays silent, when `httpClient` is
    /// borrowed (its owner shuts it down when it chooses); `nil` when it is owned.
    let silentCalls: SilentCallWatch?
    /// Whether `httpClient` is borrowed.
    var borrowsHTTPClient: Bool { silentCalls != nil }
    /// Whether the `HTTPClient` is known to decode gzip and deflate bodies (an owned one). A
    /// borrowed one's configuration cannot be read: its bodies' first bytes are checked instead.
    var decompresses: Bool { !borrowsHTTPClient }
    /// Where AsyncHTTPClient logs each request (connection pool and all), if anywhere.
    let logger: Logger?
    /// The requests in flight; none is sent once the client has been shut down.
    let calls: CallsInFlight
    /// The servers to which a request cut off is not sent again for now.
    let resends = ResendPause()
    /// The event loop a request sent while no other is in flight runs its delegate on, and prefers its
    /// connection on: one request after another then find their connection on that loop. AsyncHTTPClient
    /// otherwise takes the group's next loop for each, while the pool hands out the one idle connection
    /// wherever it is; on another loop, every event of the request is passed from one loop's thread to
    /// the other's (about two more wake-ups a request). Requests side by side are spread over the group.
    let soloEventLoop: any EventLoop
    /// Where the time limits of calls received through the delegate API are watched.
    let timeLimits: TimeLimitWatch

    var isOpen: Bool { calls.isOpen }

    nonisolated(nonsending) func send(
        _ outgoing: Outgoing, into file: DownloadFile?, timeout: TimeInterval?, bodyLimit: Int, progress: ProgressSink?
    ) async throws -> ReceivedResponse {
        try calls.enter()
        let produced = ProducedBodyReader(of: outgoing)
        defer {
            produced?.end()
            calls.leave()
        }
        do {
            // Through the `async` API the exchange races a timer; the delegate API's request keeps its own.
            if let timeout, !Self.viaDelegate(outgoing, progress: progress) {
                return try await exchange(outgoing, produced, file: file, bodyLimit: bodyLimit, progress: progress, within: timeout)
            }
            return try await exchange(outgoing, produced, file: file, bodyLimit: bodyLimit, progress: progress, timeLimit: timeout)
        } catch {
            file?.failed()
            throw error
        }
    }

    /// ``exchange(_:_:file:bodyLimit:progress:timeLimit:)``, cancelled past `timeout`, for a
    /// request sent through the `async` API. Apart, so that the timer's state takes room in a
    /// call's task only then.
    @inline(never)
    nonisolated(nonsending) private func exchange(
        _ outgoing: Outgoing, _ produced: ProducedBodyReader?, file: DownloadFile?, bodyLimit: Int, progress: ProgressSink?,
        within timeout: TimeInterval
    ) async throws -> ReceivedResponse {
        try await AttemptTimeout.run(timeout, url: outgoing.request.url) {
            try await exchange(outgoing, produced, file: file, bodyLimit: bodyLimit, progress: progress, timeLimit: nil)
        }
    }

    nonisolated(nonsending) func stream(_ outgoing: Outgoing, timeout: TimeInterval?) async throws -> ResponseStream {
        guard let url = outgoing.request.url?.removingDotSegments else { throw EndpointKitError.invalidURL("<no URL>") }
        try calls.enter()
        let produced = ProducedBodyReader(of: outgoing)
        // Until the body has been read, failed or been dropped (the reader leaves then).
        var reading = false
        defer {
            if !reading {
                produced?.end()
                calls.leave()
            }
        }
        do {
            // Through the delegate API, the request's own timer limits the wait for its head.
            let (response, source) =
                if let timeout, !Self.viaDelegate(outgoing, progress: nil) {
                    try await AttemptTimeout.run(timeout, url: url) {
                        try await responseHead(outgoing, produced, url: url, progress: nil, idleLimit: timeout, readingWhole: nil, timeLimit: nil)
                    }
                } else {
                    try await responseHead(outgoing, produced, url: url, progress: nil, idleLimit: timeout, readingWhole: nil, timeLimit: timeout)
                }
            // No Foundation response yet: a call that needs only the status and the fields
            // never builds one (see `ResponseHead`).
            let head = Self.head(status: response.status, version: response.version, headers: response.headers, url: url)
            keepCookies(of: response.headers, from: url)
            if Self.isWhole(outgoing, statusCode: head.statusCode, contentLength: response.headers.first(name: "Content-Length")) {
                try await Self.drain(source)
                return ResponseStream(head: head) { nil }
            }
            _ = try undecodedCoding(of: response.headers, url: url)
            let body = BodyReader(source, idleLimit: timeout, url: url) { [calls] in
                produced?.end()
                calls.leave()
            }
            reading = true
            return ResponseStream(head: head) {
                do {
                    return try await body.next()
                } catch {
                    throw translated(error, url: url)
                }
            }
        } catch {
            throw await translate(Self.namingField(error, of: outgoing), url: url)
        }
    }

    /// The response's head, and where its body is read from: through the delegate API when the
    /// request's body is in memory and its upload is not counted (see ``ResponseReceiver``:
    /// the chunks that come with the head are there when the body is read, and no deadline
    /// timer or extra task is made for the request; its reader waits at most `idleLimit` for
    /// each chunk), else through the `async` API (see ``BodyReader`` for its limit). A body
    /// read whole, up to a limit (`readingWhole`), is read in one piece after its head through
    /// the delegate API (see ``ResponseReceiver/init(url:idleLimit:wholeLimit:timeLimit:)``). The body
    /// of an answer that refuses the upload ends where the connection closed under it (see
    /// ``refusesUpload(_:statusCode:)``). Through the delegate API, a response that has not
    /// ended `timeLimit` seconds from now (with an `idleLimit`, whose head has not come) fails
    /// with a timeout, however often it is sent.
    nonisolated(nonsending) private func responseHead(
        _ outgoing: Outgoing, _ produced: ProducedBodyReader?, url: URL, progress: ProgressSink?, idleLimit: TimeInterval?,
        readingWhole limit: Int?, timeLimit: TimeInterval?
    ) async throws -> (HTTPResponseHead, BodyReader.Source) {
        let deadline = timeLimit.map { (deadline: NIODeadline.now() + TimeAmount($0), seconds: $0) }
        let (head, source) =
            if progress == nil, let bytes = Self.bytesInMemory(of: outgoing) {
                try await sentAgainIfClosed(outgoing, url: url) {
                    let receiver = try receive(outgoing, bytes, url: url, idleLimit: idleLimit, wholeLimit: limit, timeLimit: deadline)
                    let reader = ResponseReceiver.Reader(receiver)
                    return (try await receiver.head(), BodyReader.Source.receiver(reader))
                }
            } else {
                try await responseHeadSending(outgoing, produced, url: url, progress: progress)
            }
        return (head, Self.refusesUpload(outgoing, statusCode: Int(head.status.code)) ? .refusal(source, begun: Locked(false)) : source)
    }

    /// The response's head through the `async` API, for a request body read from a file, a
    /// stream or a producer, or counted as it goes. Apart from
    /// ``responseHead(_:_:url:progress:)``, so that its state takes room in a call's task
    /// only then.
    @inline(never)
    nonisolated(nonsending) private func responseHeadSending(
        _ outgoing: Outgoing, _ produced: ProducedBodyReader?, url: URL, progress: ProgressSink?
    ) async throws -> (HTTPResponseHead, BodyReader.Source) {
        let response = try await execute(outgoing, produced, url: url, progress: progress)
        let head = HTTPResponseHead(version: response.version, status: response.status, headers: response.headers)
        return (head, .iterator(SerialIterator(response.body.makeAsyncIterator())))
    }

    /// Sends `outgoing` and receives its answer: its body read whole, into `file`, or counted
    /// for `progress`. Through the delegate API, the answer must have ended within `timeLimit`.
    nonisolated(nonsending) private func exchange(
        _ outgoing: Outgoing, _ produced: ProducedBodyReader?, file: DownloadFile?, bodyLimit: Int, progress: ProgressSink?,
        timeLimit: TimeInterval?
    ) async throws -> ReceivedResponse {
        guard let url = outgoing.request.url?.removingDotSegments else { throw EndpointKitError.invalidURL("<no URL>") }
        do {
            let (response, source) = try await responseHead(
                outgoing, produced, url: url, progress: progress, idleLimit: nil, readingWhole: file == nil ? bodyLimit : nil,
                timeLimit: timeLimit)
            let head = Self.deferredHead(status: response.status, version: response.version, headers: response.headers, url: url)
            keepCookies(of: response.headers, from: url)
            let declared = response.headers.first(name: "Content-Length")
            if Self.isWhole(outgoing, statusCode: head.statusCode, contentLength: declared) {
                file?.failed()
                try await Self.drain(source)
                return ReceivedResponse(head: head, body: Data(), fileURL: nil)
            }
            let suspect = try undecodedCoding(of: response.headers, url: url)
            let expected = IncomingBody.expectedLength(
                method: outgoing.request.httpMethod, statusCode: head.statusCode,
                contentEncoding: response.headers.first(name: "Content-Encoding"), contentLength: declared)
            guard file == nil, progress == nil else {
                let response = head.response
                let incoming = try IncomingBody(head: response, expected: expected, file: file, bodyLimit: bodyLimit, url: url)
                return try await receiveChunks(source, into: incoming, head: response, suspect: suspect, progress: progress, url: url)
            }
            try IncomingBody.check(expected, limit: bodyLimit, url: url)
            let data = try await Self.collect(source, upTo: bodyLimit, url: url)
            try check(data, suspect, url: url)
            return ReceivedResponse(head: head, body: data, fileURL: nil)
        } catch {
            file?.failed()
            throw await translate(Self.namingField(error, of: outgoing), url: url)
        }
    }

    /// The whole body `source` holds, in memory: at most `limit` bytes, else
    /// ``EndpointKit/EndpointKitError/bodyTooLarge(url:limit:)`` (the rest is not read). Not
    /// through ``IncomingBody`` as in ``receiveChunks(_:into:head:suspect:progress:url:)``: the
    /// chunks stay one `ByteBuffer`, made `Data` once (without a copy when it is large), where
    /// a `Data` a chunk would cost a copy and an allocation more a call.
    nonisolated(nonsending) private static func collect(_ source: BodyReader.Source, upTo limit: Int, url: URL) async throws -> Data {
        var body: ByteBuffer?
        while let chunk = try await source.next() {
            guard (body?.readableBytes ?? 0) + chunk.readableBytes <= limit else {
                throw EndpointKitError.bodyTooLarge(url: url, limit: limit)
            }
            if body == nil { body = chunk } else { body?.writeImmutableBuffer(chunk) }
        }
        return body.map(data) ?? Data()
    }

    /// Whether the answer to `outgoing`, with `statusCode` and the `Content-Length` it declares,
    /// is whole with its head: it has no body (see
    /// ``EndpointKit/IncomingBody/hasNoBody(method:statusCode:)``), or an empty one, whatever
    /// coding the head names (nothing to decode, as curl and browsers read it).
    private static func isWhole(_ outgoing: Outgoing, statusCode: Int, contentLength: String?) -> Bool {
        contentLength == "0" || IncomingBody.hasNoBody(method: outgoing.request.httpMethod, statusCode: statusCode)
    }

    /// Reads to its end the body of an answer that was whole with its head (see
    /// ``isWhole(_:statusCode:contentLength:)``): what breaks after the head is not part of
    /// it. NIO's decompressor, for one, refuses the empty body of a head that declares
    /// `Content-Encoding: gzip`, as a HEAD to a server that compresses gets. A cancelled task
    /// still ends in `CancellationError`.
    @inline(never)
    nonisolated(nonsending) private static func drain(_ source: BodyReader.Source) async throws {
        do {
            while try await source.next() != nil {}
        } catch where !Task.isCancelled {}
    }

    /// Receives `body` chunk by chunk, into a download's file (or, for an answer that is not
    /// 2xx, into memory; the file is marked failed) or counted for progress. Apart
    /// from ``exchange(_:_:file:bodyLimit:progress:)``, so that its state takes room in a
    /// call's task only when a body is received this way.
    @inline(never)
    nonisolated(nonsending) private func receiveChunks(
        _ body: BodyReader.Source, into incoming: IncomingBody, head: HTTPURLResponse, suspect: String?,
        progress: ProgressSink?, url: URL
    ) async throws -> ReceivedResponse {
        var incoming = incoming
        do {
            var checked = false
            while let buffer = try await body.next() {
                // A cancel (the task's, or the progress handler's) stops the count and the file here.
                try Task.checkCancellation()
                let chunk = Self.data(buffer)
                if let coding = suspect, !checked {
                    checked = true
                    try check(chunk, coding, url: url)
                }
                if let full = try incoming.take(chunk), let handle = incoming.handle { try handle.write(contentsOf: full) }
                try progress?(incoming.progress)
            }
            if let handle = incoming.handle {
                try handle.write(contentsOf: incoming.takePending())
                try handle.close()
                incoming.file?.completed()
            } else {
                incoming.file?.failed()
            }
            try progress?(incoming.finalProgress)
            return ReceivedResponse(response: head, body: incoming.body, fileURL: incoming.handle == nil ? nil : incoming.file?.url)
        } catch {
            // Bytes that arrived before the failure are a valid prefix to resume after; the
            // caller then marks the download failed.
            if let handle = incoming.handle {
                try? handle.write(contentsOf: incoming.takePending())
                try? handle.close()
            }
            throw error
        }
    }

    /// Keeps the cookies a response sets, one `Set-Cookie` field at a time.
    private func keepCookies(of headers: HTTPHeaders, from url: URL) {
        guard let cookieStorage else { return }
        let fields = headers["Set-Cookie"]
        if !fields.isEmpty { cookieStorage.keepCookies(setBy: fields, from: url) }
    }
}
