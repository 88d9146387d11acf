import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request and the body sent apart from it (an upload), as one value that redirects and
/// retries can send again. SPI for EndpointKit's client packages.
@_spi(Transport) public struct Outgoing: Sendable {
    /// A body sent apart from the request.
    public enum Body: Sendable {
        case data(Data)
        case file(URL)
        case stream(@Sendable () throws -> InputStream)
        case produced(ProducedBody)
    }

    /// On Linux, the largest file body sent from memory with a `Content-Length`; larger files
    /// are streamed with chunked transfer encoding.
    static let inMemoryFileLimit: Int64 = 8 << 20

    /// The request; its `httpBody` may hold a small body instead of ``body``.
    public var request: URLRequest
    /// The body, when sent apart from the request.
    public var body: Body?
    /// How the client's ``HTTPCache`` answers it: the endpoint's setting (`nil`: HTTP's rules).
    public var cachePolicy: CachePolicy?
    /// The attempt's time limit, in seconds: the endpoint's or the client's (`nil`: none).
    public var timeout: TimeInterval?
    /// The endpoint's hedging (`nil`: the client's).
    var hedging: HedgingPolicy?

    /// Creates what to send.
    public init(request: URLRequest, body: Body? = nil) {
        self.request = request
        self.body = body
    }

    /// Whether something is sent after the head.
    public var carriesBody: Bool {
        body != nil || request.httpBody != nil || request.httpBodyStream != nil
    }

    /// Whether the body can be sent a second time. A stream set as `httpBodyStream` cannot,
    /// nor a produced body that says so; a stream factory can.
    public var canReplayBody: Bool {
        if case .produced(let body) = body, !body.canBeSentAgain { return false }
        return request.httpBodyStream == nil
    }

    /// The body's size, when known before sending.
    public var bodyLength: Int64? {
        switch body {
        case .data(let data): Int64(data.count)
        case .file(let url): (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        case .stream: nil
        case .produced(let body): body.length
        case nil: request.httpBody.map { Int64($0.count) } ?? (request.httpBodyStream == nil ? 0 : nil)
        }
    }

    mutating func dropBody() {
        body = nil
        request.httpBody = nil
        request.httpBodyStream = nil
    }

    /// Makes the task that sends this, with Foundation's idle timeout kept past the attempt's
    /// time limit (see `URLRequest.idleTimeout(past:)`). A stream body is made here, fresh for
    /// every task, and given as the request's `httpBodyStream`: Foundation on Linux then treats
    /// it as a known body and drops libcurl's `Expect: 100-continue`, which otherwise stalls
    /// each streamed upload for a second against servers that don't answer `100 Continue`.
    ///
    /// Throws ``EndpointKitError/transportFailed(url:underlying:)`` with `.unsupportedURL` for a
    /// URL that is not http or https (`URL.isHTTP`), and
    /// ``EndpointKitError/invalidRequest(endpoint:underlying:)`` for a `GET` with a body, before
    /// anything is sent: Foundation refuses that (on Apple platforms too) as
    /// `.dataLengthExceedsMaximum`, "resource exceeds maximum size", which reads as a size limit.
    func makeTask(in session: URLSession) throws -> URLSessionTask {
        var request = request
        if let url = request.url?.schemeLowercased { request.url = url }
        let idleTimeout = request.idleTimeout(past: timeout)
        if request.timeoutInterval != idleTimeout { request.timeoutInterval = idleTimeout }
        if let url = request.url, let scheme = url.scheme, !url.isHTTP {
            let words = "unsupported URL: URLSessionClient speaks http and https, not \(scheme.lowercased())"
            throw EndpointKitError.transportFailed(
                url: url, underlying: URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: words, NSURLErrorFailingURLErrorKey: url]))
        }
        if HTTPMethod(request.httpMethod ?? "GET") == .get, bodyLength != 0 {
            throw EndpointKitError.invalidRequest(
                endpoint: "URLRequest.httpBody",
                underlying: CocoaError(.featureUnsupported, userInfo: [
                    NSLocalizedDescriptionKey: "URLSession does not send a GET with a body (Foundation refuses it); AsyncHTTPClientClient does"
                ]))
        }
        switch body {
        case .data(let data):
            return session.uploadTask(with: request, from: data)
        case .file(let url):
            #if canImport(FoundationNetworking)
                // Foundation on Linux reads a file body ahead with DispatchIO and pauses libcurl
                // meanwhile; a transfer that ends while a read is pending (a cancel, an early
                // answer, a reset) crashes the process (EasyHandle.swift: a forced try on
                // curl_easy_pause, libcurl error 43). So a small file goes from memory with its
                // length, a larger one as a stream (chunked), never through that reader.
                if let length = bodyLength, length <= Self.inMemoryFileLimit {
                    return session.uploadTask(with: request, from: try Data(contentsOf: url))
                }
                guard let stream = InputStream(url: url) else {
                    throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
                }
                return session.dataTask(with: Self.streaming(request, stream))
            #else
                return session.uploadTask(with: request, fromFile: url)
            #endif
        case .stream(let makeStream):
            return session.dataTask(with: Self.streaming(request, try makeStream()))
        case .produced:
            // The transport reads a produced body first (``readingProducedBody()``).
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "a produced body must be read before its task is made"])
        case nil:
            return session.dataTask(with: request.httpBodyStream.map { Self.streaming(request, $0) } ?? request)
        }
    }

    /// `request` with `stream` as its body, labelled `application/octet-stream` when it is a
    /// `POST` without a `Content-Type`: libcurl labels a streamed `POST`
    /// `application/x-www-form-urlencoded` otherwise, and a server that parses forms
    /// (Express's `urlencoded()`, PHP, Django's `request.POST`) reads the bytes as one.
    private static func streaming(_ request: URLRequest, _ stream: InputStream) -> URLRequest {
        var request = request
        request.httpBodyStream = stream
        if request.httpMethod == "POST", request.field(named: "Content-Type") == nil {
            request.setField("application/octet-stream", named: "Content-Type")
        }
        return request
    }
}
