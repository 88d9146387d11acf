import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The steps every call goes through, whatever does the I/O: build; for each attempt adapt,
/// send (following redirects), validate; decode; observe. SPI for EndpointKit's client packages.
@_spi(Transport) public struct Pipeline: Sendable {
    let requestAdapter: any RequestAdapter
    /// Told every call's events: the response observer and the client's monitors, or `nil`.
    let monitor: (any CallMonitor)?
    let retryPolicy: RetryPolicy
    let timeout: TimeInterval?
    let maximumBodySize: Int
    let transport: any Transport

    /// Creates a pipeline over `transport` with a client's settings; with a `cache`, every
    /// request is answered through it (``CachingTransport``).
    public init(
        requestAdapter: any RequestAdapter, responseObserver: ResponseObserver?, monitors: [any CallMonitor] = [],
        retryPolicy: RetryPolicy, timeout: TimeInterval?, maximumBodySize: Int, cache: HTTPCache? = nil,
        transport: any Transport
    ) {
        self.requestAdapter = requestAdapter
        self.monitor = CallMonitorGroup.combining(responseObserver, monitors)
        self.retryPolicy = retryPolicy
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.transport = cache.map { CachingTransport(cache: $0, transport: transport) } ?? transport
    }

    /// Runs one call to its end; a failed attempt is retried when a retrier says so. Each
    /// attempt runs with the call's context as ``CallContext/current``.
    public func perform<Content>(
        _ call: Call<Content>, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Content {
        var events = CallEvents(monitor: monitor, call: CallContext(endpointType: call.endpointType))
        var temporaryFile: URL?
        defer { temporaryFile.map { try? FileManager.default.removeItem(at: $0) } }
        let progress = progress.map(Self.monotonic)
        let timeout = call.settings.timeout ?? self.timeout
        var base: Outgoing?
        var attempt = 1
        while true {
            let context = events.call.at(attempt: attempt)
            let outcome: Content? = try await CallContext.$current.withValue(context) {
                do {
                    if base == nil {
                        var (built, form) = try build(call)
                        events.request = built.request
                        if let form { temporaryFile = try Self.write(form, into: &built) }
                        base = built
                    }
                    guard let base else { throw CancellationError() }
                    let content = try await send(call, base, as: context, events: &events, timeout: timeout, progress: progress)
                    events.callFinished(nil)
                    return .some(content)
                } catch {
                    var error = Self.normalized(error)
                    if !(error is CancellationError), base?.canReplayBody == true, let request = events.request {
                        do {
                            if let delay = try await retryDelay(call, request: request, response: events.response, error: error, attempt: attempt) {
                                events.retryScheduled(after: delay, reason: error)
                                if delay > 0 { try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) }
                                attempt += 1
                                return nil
                            }
                        } catch let retryError {
                            error = Self.normalized(retryError)
                        }
                    }
                    events.callFinished(error)
                    throw error
                }
            }
            if let outcome { return outcome }
        }
    }

    /// One attempt of `call`: adapt, send (following redirects), validate, decode.
    private func send<Content>(
        _ call: Call<Content>, _ base: Outgoing, as context: CallContext, events: inout CallEvents,
        timeout: TimeInterval?, progress: ProgressSink?
    ) async throws -> Content {
        var outgoing = base
        events.request = outgoing.request
        try Task.checkCancellation()
        outgoing.request = try await RequestAdapterChain.run(requestAdapter, on: outgoing.request)
        events.attemptStarted(context, request: &outgoing.request)
        var received: ReceivedResponse?
        do {
            let answer = try await sendFollowingRedirects(
                Self.prepared(outgoing, timeout: timeout), sink: call.sink, timeout: timeout, progress: progress, events: &events)
            received = answer
            let inMemory = answer.fileURL == nil ? answer.body : nil
            try call.validate(outgoing.request, answer.response, inMemory)
            let content = try Self.decode(Content.self, url: outgoing.request.url, answer) {
                try call.content(answer.response, answer)
            }
            events.attemptFinished(answer, error: nil, sending: outgoing)
            return content
        } catch {
            events.attemptFinished(received, error: Self.normalized(error), sending: outgoing)
            throw error
        }
    }

    /// A cancelled task's error, whatever it was, reads as `CancellationError`.
    static func normalized(_ error: any Error) -> any Error {
        Task.isCancelled || error is CancellationError ? CancellationError() : error
    }

    /// Asks the adapters that retry, then the retry policy; the first "retry" wins.
    private func retryDelay<Content>(
        _ call: Call<Content>, request: URLRequest, response: HTTPURLResponse?, error: any Error, attempt: Int
    ) async throws -> TimeInterval? {
        let retriers = RequestAdapterChain.retriers(in: requestAdapter) + [call.settings.retryPolicy ?? retryPolicy]
        for retrier in retriers {
            if case .retry(let delay) = try await retrier.retry(request, response: response, error: error, attempt: attempt) {
                return delay
            }
        }
        return nil
    }

    /// Sends `outgoing`, following the redirects the transport leaves to the pipeline.
    private func sendFollowingRedirects<Content>(
        _ outgoing: Outgoing, sink: Call<Content>.Sink, timeout: TimeInterval?,
        progress: ProgressSink?, events: inout CallEvents
    ) async throws -> ReceivedResponse {
        var outgoing = outgoing
        for _ in 0...Redirect.limit {
            var file: DownloadFile?
            if case .file(let resumableURL) = sink {
                file = DownloadFile(resumableURL: resumableURL, request: &outgoing.request)
            }
            let received = try await transport.send(
                outgoing, into: file, timeout: timeout, bodyLimit: maximumBodySize, progress: progress)
            guard let next = try Redirect.replay(after: received.response, of: outgoing) else {
                return received
            }
            events.redirected(received.response, to: next.request)
            outgoing = next
        }
        throw EndpointKitError.redirectRefused(url: outgoing.request.url, reason: "more than \(Redirect.limit) redirects")
    }

    private func build<Content>(_ call: Call<Content>) throws -> (Outgoing, MultipartFormData?) {
        do {
            var (outgoing, form) = try call.makeOutgoing()
            outgoing.cachePolicy = call.settings.cachePolicy
            return (outgoing, form)
        } catch {
            throw EndpointKitError.invalidRequest(endpoint: call.endpoint, underlying: error)
        }
    }

    /// Writes a multipart form to a temporary file and makes it the body; returns the file.
    private static func write(_ form: MultipartFormData, into outgoing: inout Outgoing) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("EndpointKit-\(UUID().uuidString).multipart")
        do {
            try form.write(to: url)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        outgoing.body = .file(url)
        outgoing.request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        return url
    }

    /// Removes framing headers the transport sets itself: a manual `Content-Length` next to a
    /// body makes Foundation on Linux send an invalid request that hangs.
    private static func prepared(_ outgoing: Outgoing, timeout: TimeInterval?) -> Outgoing {
        var outgoing = outgoing
        // Foundation's idle timeout takes whole seconds (0 would mean none); keep it past ours.
        if let timeout { outgoing.request.timeoutInterval = max(outgoing.request.timeoutInterval, timeout.rounded(.up) + 1) }
        let framing = outgoing.request.allHTTPHeaderFields?.keys.filter {
            ["content-length", "transfer-encoding"].contains($0.lowercased())
        }
        for name in framing ?? [] { outgoing.request.setValue(nil, forHTTPHeaderField: name) }
        return outgoing
    }

    /// Wraps a `DecodingError` with the type, URL, status and body it failed on.
    private static func decode<Content>(
        _ type: Content.Type, url: URL?, _ received: ReceivedResponse, _ decode: () throws -> Content
    ) throws -> Content {
        do {
            return try decode()
        } catch let error as DecodingError {
            throw EndpointKitError.decodingFailed(
                DecodingFailure(
                    type: String(describing: Content.self), url: received.response.url ?? url,
                    statusCode: received.response.statusCode,
                    contentType: received.response.value(forHTTPHeaderField: "Content-Type"),
                    underlying: error, body: received.body))
        }
    }

    /// Passes on only reports that move forward, so progress never goes back when a redirect
    /// or a retry sends the body again. Each report can cancel the call: after the handler
    /// called ``TransferProgress/cancel()``, the transport is told to stop by a throw.
    private static func monotonic(_ handler: @escaping @Sendable (TransferProgress) -> Void) -> ProgressSink {
        let last = Locked<[TransferProgress.Direction: Int64]>([:])
        let cancellation = ProgressCancellation()
        return { update in
            guard !cancellation.isRequested else { throw CancellationError() }
            let forward = last.withLock { last in
                guard update.completedBytes >= last[update.direction, default: -1] else { return false }
                last[update.direction] = update.completedBytes
                return true
            }
            if forward { handler(update.cancelling(with: cancellation)) }
            if cancellation.isRequested { throw CancellationError() }
        }
    }
}
