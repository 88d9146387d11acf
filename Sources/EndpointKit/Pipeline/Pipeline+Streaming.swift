import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@_spi(Transport) extension Pipeline {
    /// Starts `endpoint` as a stream, through the steps of every call (adapters, monitors,
    /// redirects, retries); each attempt returns once the head arrives and is validated (a
    /// non-2xx body, up to 64 KiB, is read for the error), and the body follows. The call's
    /// events end when the head is validated or the call fails.
    public func stream<T: Endpoint>(_ endpoint: T) async throws -> ResponseStream {
        try await run(T.self, settings: endpoint, build: { (Outgoing(request: try endpoint.makeRequest()), nil) }) {
            outgoing, record, events in
            var stream = try await followingRedirects(outgoing, record: &record, events: &events) { [transport] hop in
                let stream = try await transport.stream(hop, timeout: hop.timeout)
                return (stream.response, stream)
            }
            record.received = ReceivedResponse(response: stream.response, body: Data(), fileURL: nil)
            if !(200..<300).contains(stream.response.statusCode) {
                var body = Data()
                for try await chunk in stream where body.count < HTTPFailure.bodyLimit { body.append(chunk) }
                record.received = ReceivedResponse(response: stream.response, body: body, fileURL: nil)
                try endpoint.validate(outgoing.request, response: stream.response, data: body)
                stream = ResponseStream(response: stream.response, chunks: AsyncThrowingStream { $0.yield(body); $0.finish() })
            } else {
                try endpoint.validate(outgoing.request, response: stream.response, data: nil)
            }
            return stream
        }
    }
}
