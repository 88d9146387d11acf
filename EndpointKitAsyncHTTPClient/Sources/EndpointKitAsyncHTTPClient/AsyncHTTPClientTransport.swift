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
/// downloads have real back-pressure.
struct AsyncHTTPClientTransport: Transport {
    let httpClient: HTTPClient
    /// Where cookies are kept, if anywhere.
    let cookieStorage: (any CookieStore)?
    /// Whether the `HTTPClient` is known to decode gzip and deflate bodies (an owned one). A
    /// borrowed one's configuration cannot be read: its bodies' first bytes are checked instead.
    let decompresses: Bool
    /// Where AsyncHTTPClient logs each request (connection pool and all), if anywhere.
    let logger: Logger?
    /// The requests in flight; none is sent once the client has been shut down.
    let calls: CallsInFlight

    var isOpen: Bool { calls.isOpen }

    func send(
        _ outgoing: Outgoing, into file: DownloadFile?, timeout: TimeInterval?, bodyLimit: Int,
        progress: ProgressSink?
    ) async throws -> ReceivedResponse {
        try calls.enter()
        let produced = ProducedBodyReader(of: outgoing)
        defer {
            produced?.end()
            calls.leave()
        }
        do {
            return try await AttemptTimeout.run(timeout, url: outgoing.request.url) {
                try await exchange(outgoing, produced, file: file, bodyLimit: bodyLimit, progress: progress)
            }
        } catch {
            file?.failed()
            throw error
        }
    }

    /// Sends `outgoing` and returns at its response head; the body is read as the reader asks
    /// for it (real back-pressure). Dropping the stream cancels the request.
    func stream(_ outgoing: Outgoing, timeout: TimeInterval?) async throws -> ResponseStream {
        guard let url = outgoing.request.url else { throw EndpointKitError.invalidURL("<no URL>") }
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
            let response = try await AttemptTimeout.run(timeout, url: url) {
                try await execute(outgoing, produced, url: url, progress: nil)
            }
            let head = try Self.head(of: response, url: url)
            keepCookies(of: response, from: url)
            _ = try undecodedCoding(of: response, url: url)
            let body = BodyReader(response.body) { [calls] in
                produced?.end()
                calls.leave()
            }
            reading = true
            let chunks = AsyncThrowingStream<Data, any Error> {
                do {
                    return try await body.next()
                } catch {
                    throw translated(error, url: url)
                }
            }
            return ResponseStream(response: head, chunks: chunks)
        } catch {
            throw await translate(error, url: url)
        }
    }

    private func exchange(
        _ outgoing: Outgoing, _ produced: ProducedBodyReader?, file: DownloadFile?, bodyLimit: Int, progress: ProgressSink?
    ) async throws -> ReceivedResponse {
        guard let url = outgoing.request.url else { throw EndpointKitError.invalidURL("<no URL>") }
        var incoming: IncomingBody?
        do {
            let response = try await execute(outgoing, produced, url: url, progress: progress)
            let head = try Self.head(of: response, url: url)
            keepCookies(of: response, from: url)
            let suspect = try undecodedCoding(of: response, url: url)
            let expected = IncomingBody.expectedLength(
                contentEncoding: response.headers.first(name: "Content-Encoding"), contentLength: response.headers.first(name: "Content-Length"))
            incoming = try IncomingBody(head: head, expected: expected, file: file, bodyLimit: bodyLimit, url: url)
            if incoming?.handle == nil, progress == nil {
                // The common case, in one step: each chunk-by-chunk step costs a thread hop.
                let buffer = try await response.body.collect(upTo: bodyLimit)
                file?.failed()
                let data = Self.data(buffer)
                try check(data, suspect, url: url)
                return ReceivedResponse(response: head, body: data, fileURL: nil)
            }
            var checked = false
            for try await buffer in response.body {
                // A cancel (the task's, or the progress handler's) stops the count and the file here.
                try Task.checkCancellation()
                let chunk = Self.data(buffer)
                if let coding = suspect, !checked {
                    checked = true
                    try check(chunk, coding, url: url)
                }
                // In place (`incoming?.`): a copy would copy the body at every chunk.
                if let full = try incoming?.take(chunk), let handle = incoming?.handle { try handle.write(contentsOf: full) }
                if let report = incoming?.progress { try progress?(report) }
            }
            guard var body = incoming.take() else { throw EndpointKitError.invalidResponse(url: url) }
            if let handle = body.handle {
                try handle.write(contentsOf: body.takePending())
                try handle.close()
                body.file?.completed()
            } else {
                body.file?.failed()
            }
            try progress?(body.finalProgress)
            return ReceivedResponse(response: head, body: body.body, fileURL: body.handle == nil ? nil : body.file?.url)
        } catch let error as NIOTooManyBytesError {
            _ = error
            throw EndpointKitError.bodyTooLarge(url: url, limit: bodyLimit)
        } catch {
            // Bytes that arrived before the failure are a valid prefix to resume after.
            if var body = incoming, let handle = body.handle {
                try? handle.write(contentsOf: body.takePending())
                try? handle.close()
            }
            (incoming?.file ?? file)?.failed()
            throw await translate(error, url: url)
        }
    }

    /// The coding the body may still be in when this client could not tell whether it was
    /// decoded (a borrowed `HTTPClient`); throws for a coding it cannot decode at all.
    private func undecodedCoding(of response: HTTPClientResponse, url: URL) throws -> String? {
        // Most answers have no coding: no header list is built for them.
        guard response.headers.contains(name: "Content-Encoding") else { return nil }
        let header = response.headers[canonicalForm: "Content-Encoding"].joined(separator: ", ")
        let codings = ContentCoding.codings(in: header)
        guard !codings.isEmpty else { return nil }
        // NIO's decompressor decodes one gzip or deflate coding.
        guard codings.count == 1, ["gzip", "deflate"].contains(codings[0]) else {
            throw ContentCoding.unsupported(header, url: url, decodable: "gzip and deflate, when its HTTPClient decompresses")
        }
        return decompresses ? nil : codings[0]
    }

    /// Throws when `body`'s first bytes show it is still in `coding`.
    private func check(_ body: Data, _ coding: String?, url: URL) throws {
        guard let coding, ContentCoding.isStillEncoded(body, as: coding) else { return }
        throw ContentCoding.unsupported(coding, url: url, decodable: "none: its HTTPClient does not decompress")
    }

    /// Sends the request and waits for the response head. An idempotent request whose
    /// connection closed or reset before any answer (typically a pooled connection the server
    /// had just dropped as idle, as servers with short keep-alive timeouts do) is sent once more
    /// on a fresh connection, as RFC 9110 (9.2.2) allows and libcurl and browsers do.
    private func execute(
        _ outgoing: Outgoing, _ produced: ProducedBodyReader?, url: URL, progress: ProgressSink?
    ) async throws -> HTTPClientResponse {
        do {
            return try await httpClient.execute(
                makeRequest(outgoing, produced, url: url, progress: progress), deadline: .distantFuture, logger: logger)
        } catch where Self.closedBeforeAnswering(error) && EndpointKit.HTTPMethod(outgoing.request.httpMethod ?? "GET").isIdempotent
            && outgoing.canReplayBody && !Task.isCancelled
        {
            return try await httpClient.execute(
                makeRequest(outgoing, produced, url: url, progress: progress), deadline: .distantFuture, logger: logger)
        }
    }

    /// Whether `error` says the connection closed or reset before any response arrived.
    private static func closedBeforeAnswering(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError { return error == .remoteConnectionClosed }
        if let error = error as? HTTPParserError { return error == .invalidEOFState }
        if let error = error as? ChannelError { return error == .ioOnClosedChannel || error == .eof }
        if let error = error as? IOError { return [ECONNRESET, EPIPE].contains(error.errnoCode) }
        return false
    }

    private func makeRequest(
        _ outgoing: Outgoing, _ produced: ProducedBodyReader?, url: URL, progress: ProgressSink?
    ) throws -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .init(rawValue: outgoing.request.httpMethod ?? "GET")
        let fields = outgoing.request.allHTTPHeaderFields ?? [:]
        // Room for the defaults too: the fields' array grows once, not field by field.
        request.headers.reserveCapacity(fields.count + Self.defaultHeaders.count)
        for (name, value) in fields {
            request.headers.add(name: name, value: value)
        }
        // What URLSession sends unless told otherwise; some APIs (GitHub's among them) refuse a
        // request without a User-Agent. Not `Accept-Encoding`: an `HTTPClient` that decompresses
        // asks for gzip itself, and one that does not could not read the answer.
        for (name, value) in Self.defaultHeaders where !request.headers.contains(name: name) {
            request.headers.add(name: name, value: value)
        }
        if let cookieStorage, outgoing.request.httpShouldHandleCookies, !request.headers.contains(name: "Cookie") {
            for (name, value) in HTTPCookie.requestHeaderFields(with: cookieStorage.cookiesToSend(to: url)) {
                request.headers.add(name: name, value: value)
            }
        }
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

    /// Keeps the cookies `response` sets, one `Set-Cookie` field at a time.
    private func keepCookies(of response: HTTPClientResponse, from url: URL) {
        guard let cookieStorage else { return }
        let fields = response.headers["Set-Cookie"]
        if !fields.isEmpty { cookieStorage.keepCookies(setBy: fields, from: url) }
    }

    private static let defaultHeaders = [("Accept", "*/*"), ("User-Agent", "EndpointKit (AsyncHTTPClient)")]

    private static func head(of response: HTTPClientResponse, url: URL) throws -> HTTPURLResponse {
        var fields = [String: String](minimumCapacity: response.headers.count)
        for header in response.headers {
            fields[header.name] = fields[header.name].map { $0 + ", " + header.value } ?? header.value
        }
        guard
            let head = HTTPURLResponse(
                url: url, statusCode: Int(response.status.code), httpVersion: versionText(response.version),
                headerFields: fields)
        else { throw EndpointKitError.invalidResponse(url: url) }
        return head
    }

    /// `HTTP/1.1` and the like; the common versions are written without building a string.
    private static func versionText(_ version: HTTPVersion) -> String {
        switch (version.major, version.minor) {
        case (1, 1): "HTTP/1.1"
        case (2, 0): "HTTP/2.0"
        case (1, 0): "HTTP/1.0"
        default: "HTTP/\(version.major).\(version.minor)"
        }
    }

    /// The buffer's bytes as `Data`; a large buffer is shared, not copied.
    static func data(_ buffer: ByteBuffer) -> Data {
        buffer.getData(at: buffer.readerIndex, length: buffer.readableBytes, byteTransferStrategy: .automatic) ?? Data()
    }
}
