import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@_spi(Transport) extension Pipeline {
    /// Starts `endpoint` as a stream: build, adapt, send; once the head arrives, validate it
    /// (a non-2xx body, up to 64 KiB, is read for the error) and hand the body over. The
    /// observer is told once, when the head is validated or the call fails. Streams are not
    /// retried.
    public func stream<T: Endpoint>(_ endpoint: T) async throws -> ResponseStream {
        try await CallContext.$current.withValue(CallContext(endpointType: T.self)) { try await startStream(endpoint) }
    }

    private func startStream<T: Endpoint>(_ endpoint: T) async throws -> ResponseStream {
        var request: URLRequest?
        var response: HTTPURLResponse?
        do {
            var outgoing = Outgoing(request: try Self.built(T.self, endpoint.makeRequest))
            request = outgoing.request
            try Task.checkCancellation()
            outgoing.request = try await RequestAdapterChain.run(requestAdapter, on: outgoing.request)
            request = outgoing.request
            let timeout = endpoint.timeout ?? self.timeout
            var stream = try await transport.stream(outgoing, timeout: timeout)
            for _ in 0..<Redirect.limit where !transport.followsBodilessRedirects {
                guard let next = try Redirect.replay(after: stream.response, of: outgoing, followingAll: true) else { break }
                outgoing = next
                stream = try await transport.stream(outgoing, timeout: timeout)
            }
            response = stream.response
            if !(200..<300).contains(stream.response.statusCode) {
                var body = Data()
                for try await chunk in stream where body.count < HTTPFailure.bodyLimit { body.append(chunk) }
                try endpoint.validate(outgoing.request, response: stream.response, data: body)
                stream = ResponseStream(response: stream.response, chunks: AsyncThrowingStream { $0.yield(body); $0.finish() })
            } else {
                try endpoint.validate(outgoing.request, response: stream.response, data: nil)
            }
            responseObserver?(request, response, nil, nil)
            return stream
        } catch {
            throw failed(error, request: request, response: response)
        }
    }

    /// The request `make` builds; its error wrapped as ``EndpointKitError/invalidRequest(endpoint:underlying:)``
    /// naming `endpoint`.
    static func built<T>(_ endpoint: T.Type, _ make: () throws -> URLRequest) throws -> URLRequest {
        do {
            return try make()
        } catch {
            throw EndpointKitError.invalidRequest(endpoint: String(describing: T.self), underlying: error)
        }
    }

    /// Tells the observer a call failed with `error` (a `CancellationError` if the task was
    /// cancelled) and returns that error to throw.
    func failed(_ error: any Error, request: URLRequest?, response: HTTPURLResponse?) -> any Error {
        let error = Task.isCancelled || error is CancellationError ? CancellationError() : error
        responseObserver?(request, response, nil, error)
        return error
    }
}
