import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionClient {
    /// The steps every call goes through: build, adapt, transfer, validate, decode, observe.
    func perform<T: Endpoint>(_ endpoint: T) async throws -> T.Content {
        var request: URLRequest?
        var response: HTTPURLResponse?
        var body: Data?
        do {
            request = try Self.makeRequest(endpoint)
            try Task.checkCancellation()
            let adapted = try await RequestAdapterChain.run(requestAdapter, on: request ?? URLRequest.empty)
            request = adapted
            (response, body) = try await transferFollowingRedirects(Self.prepared(adapted))
            guard let response, let body else { throw EndpointKitError.invalidResponse(url: adapted.url) }
            try endpoint.validate(adapted, response: response, data: body)
            let content = try Self.decode(endpoint, request: adapted, response: response, body: body)
            responseObserver?(request, response, body, nil)
            return content
        } catch {
            let error = Task.isCancelled || error is CancellationError ? CancellationError() : error
            responseObserver?(request, response, body, error)
            throw error
        }
    }

    /// Sends `request`, sending it again through each 307 or 308 that asks for its body.
    func transferFollowingRedirects(_ request: URLRequest) async throws -> (HTTPURLResponse, Data) {
        var request = request
        for _ in 0...Redirect.limit {
            let (response, body) = try await transfer(request)
            guard let next = try Redirect.replay(after: response, of: request) else { return (response, body) }
            request = next
        }
        throw EndpointKitError.redirectRefused(url: request.url, reason: "more than \(Redirect.limit) redirects")
    }

    /// Sends `request` as a data task and gathers its response, honouring task cancellation.
    func transfer(_ request: URLRequest) async throws -> (HTTPURLResponse, Data) {
        let handler = DataTaskHandler(url: request.url, delegate: delegate)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                handler.onCompletion { continuation.resume(with: $0) }
                do {
                    let task = try delegate.register(handler, for: request) {
                        session.dataTask(with: request)
                    }
                    if handler.start(task) {
                        task.resume()
                    } else {
                        delegate.unregister(task)
                        delegate.cancel(task)
                    }
                } catch {
                    handler.finish(.failure(error))
                }
            }
        } onCancel: {
            handler.cancel()
        }
    }

    /// Runs `work` in a task and hands its result to `handler` on `queue`; the returned
    /// `Progress` cancels the task.
    func complete<Content: Sendable>(
        on queue: DispatchQueue,
        _ handler: @escaping @Sendable (Result<Content, any Error>) -> Void,
        _ work: @escaping @Sendable () async throws -> Content
    ) -> Progress {
        let progress = Progress(totalUnitCount: 1)
        let task = Task {
            let result: Result<Content, any Error>
            do {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            progress.completedUnitCount = 1
            queue.async { handler(result) }
        }
        progress.cancellationHandler = { task.cancel() }
        return progress
    }

    private static func makeRequest<T: Endpoint>(_ endpoint: T) throws -> URLRequest {
        do {
            return try endpoint.makeRequest()
        } catch {
            throw EndpointKitError.invalidRequest(endpoint: String(describing: T.self), underlying: error)
        }
    }

    /// Removes framing headers the transport sets itself: a manual `Content-Length` next to a
    /// body makes Foundation on Linux send an invalid request that hangs.
    private static func prepared(_ request: URLRequest) -> URLRequest {
        var request = request
        for name in ["Content-Length", "Transfer-Encoding"] where request.value(forHTTPHeaderField: name) != nil {
            request.setValue(nil, forHTTPHeaderField: name)
        }
        return request
    }

    private static func decode<T: Endpoint>(
        _ endpoint: T, request: URLRequest, response: HTTPURLResponse, body: Data
    ) throws -> T.Content {
        do {
            return try endpoint.content(from: response, with: body)
        } catch let error as DecodingError {
            throw EndpointKitError.decodingFailed(
                DecodingFailure(
                    type: String(describing: T.Content.self), url: response.url ?? request.url,
                    statusCode: response.statusCode,
                    contentType: response.value(forHTTPHeaderField: "Content-Type"),
                    underlying: error, body: body))
        }
    }
}

extension URLRequest {
    fileprivate static let empty = URLRequest(url: URL(fileURLWithPath: "/"))
}
