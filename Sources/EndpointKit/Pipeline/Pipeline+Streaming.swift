import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@_spi(Transport) extension Pipeline {
    /// Starts `endpoint` as a stream: build, adapt, send; once the head arrives, validate it
    /// (a non-2xx body, up to 64 KiB, is read for the error) and hand the body over. The call's
    /// events end when the head is validated or the call fails. Streams are not retried.
    public func stream<T: Endpoint>(_ endpoint: T) async throws -> ResponseStream {
        try await reporting(T.self) { events in try await startStream(endpoint, events: &events) }
    }

    private func startStream<T: Endpoint>(_ endpoint: T, events: inout CallEvents) async throws -> ResponseStream {
        var outgoing = Outgoing(request: try Self.built(T.self, endpoint.makeRequest))
        events.request = outgoing.request
        try Task.checkCancellation()
        outgoing.request = try await RequestAdapterChain.run(requestAdapter, on: outgoing.request)
        events.attemptStarted(events.call, request: &outgoing.request)
        var head: ReceivedResponse?
        do {
            let timeout = endpoint.timeout ?? self.timeout
            var stream = try await transport.stream(outgoing, timeout: timeout)
            for _ in 0..<Redirect.limit {
                guard let next = try Redirect.replay(after: stream.response, of: outgoing) else { break }
                events.redirected(stream.response, to: next.request)
                outgoing = next
                stream = try await transport.stream(outgoing, timeout: timeout)
            }
            head = ReceivedResponse(response: stream.response, body: Data(), fileURL: nil)
            if !(200..<300).contains(stream.response.statusCode) {
                var body = Data()
                for try await chunk in stream where body.count < HTTPFailure.bodyLimit { body.append(chunk) }
                head = ReceivedResponse(response: stream.response, body: body, fileURL: nil)
                try endpoint.validate(outgoing.request, response: stream.response, data: body)
                stream = ResponseStream(response: stream.response, chunks: AsyncThrowingStream { $0.yield(body); $0.finish() })
            } else {
                try endpoint.validate(outgoing.request, response: stream.response, data: nil)
            }
            events.attemptFinished(head, error: nil, sending: outgoing)
            return stream
        } catch {
            events.attemptFinished(head, error: Self.normalized(error), sending: outgoing)
            throw error
        }
    }

    /// Runs a one-attempt call of `endpoint` (a stream, a WebSocket handshake) with its context
    /// as ``CallContext/current``, and tells the monitor how it ended.
    func reporting<T, Result>(
        _ endpoint: T.Type, _ body: (inout CallEvents) async throws -> Result
    ) async throws -> Result {
        let context = CallContext(endpointType: T.self)
        return try await CallContext.$current.withValue(context) {
            var events = CallEvents(monitor: monitor, call: context)
            do {
                let result = try await body(&events)
                events.callFinished(nil)
                return result
            } catch {
                let error = Self.normalized(error)
                events.callFinished(error)
                throw error
            }
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
}
