import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@_spi(Transport) extension Pipeline {
    /// Starts `endpoint` as a stream, through the steps of every call (adapters, monitors,
    /// redirects, retries); each attempt returns once the head arrives and is validated, and the
    /// body follows. A non-2xx status the endpoint refuses is validated again with the body's
    /// first 64 KiB, for the error; one it accepts streams its body whole. The call's
    /// events end when the head is validated or the call fails.
    public func stream<T: Endpoint>(_ endpoint: T) async throws -> ResponseStream {
        try await stream(endpoint, build: { (Outgoing(request: try endpoint.makeRequest()), nil) }) {
            try endpoint.validate($0, response: $1, data: $2)
        }
    }

    /// Starts `endpoint` as a stream: its body is sent as for ``Client/upload(_:progress:)``,
    /// the answer streams as for an ``Endpoint``.
    public func stream<T: UploadEndpoint>(upload endpoint: T) async throws -> ResponseStream {
        try await stream(
            endpoint,
            build: {
                let (request, body) = try endpoint.makeRequest()
                return try Outgoing.upload(request, body)
            },
            validate: { try endpoint.validate($0, response: $1, data: $2) })
    }

    /// A stream's steps; a head whose status `endpoint` takes as it is (see
    /// ``StatusAccepting``) is not validated (nor built into an `HTTPURLResponse`, see
    /// ``ResponseHead``).
    nonisolated(nonsending) private func stream<T: EndpointSettings>(
        _ endpoint: T, build: () throws -> (Outgoing, MultipartFormData?),
        validate: (URLRequest?, HTTPURLResponse, Data?) throws -> Void
    ) async throws -> ResponseStream {
        // Asked through the endpoint's type: casting the endpoint itself to `any StatusAccepting`
        // would box it (an allocation for every call).
        let accepting = T.self as? any StatusAccepting.Type
        return try await run(T.self, settings: endpoint, build: build) { outgoing, record, events in
            var stream = try await followingRedirects(outgoing, record: &record, events: &events, head: \.head) { [transport] hop in
                try await transport.stream(hop, timeout: hop.timeout)
            }
            stream.textLimit = maximumBodySize
            record.received = Self.received(stream, body: nil)
            // An endpoint that takes the status as it is (an OpenAPI operation with documented
            // error answers, say) gets its body streamed whole.
            if accepting?.accepts(endpoint, statusCode: stream.head.statusCode) == true { return stream }
            do {
                try validate(outgoing.request, stream.response, nil)
            } catch where !HTTPFailure.accepts(stream.head.statusCode) {
                return try await Self.refused(stream, of: outgoing, record: &record, validate: validate)
            }
            return stream
        }
    }

    /// `stream`, whose non-2xx status `validate` refused, validated again with its body's first
    /// bytes (for the error; see ``firstBytes(of:within:)``). Apart from
    /// ``stream(_:build:validate:)``, so that its values take room in a call's task only for
    /// such a status.
    @inline(never)
    nonisolated(nonsending) private static func refused(
        _ stream: ResponseStream, of outgoing: Outgoing, record: inout AttemptRecord,
        validate: (URLRequest?, HTTPURLResponse, Data?) throws -> Void
    ) async throws -> ResponseStream {
        let body = try await firstBytes(of: stream, within: outgoing.timeout)
        record.received = received(stream, body: body)
        try validate(outgoing.request, stream.response, body)
        return ResponseStream(head: stream.head, chunks: AsyncThrowingStream { [body] in $0.yield(body); $0.finish() })
    }

    /// The first bytes of `stream`'s body: up to ``HTTPFailure/bodyLimit``, or as many as came
    /// within `limit` seconds (the attempt's time limit, once more). The rest is not read: the
    /// stream is dropped, and its connection closed. An error page streamed without end, or
    /// trickling, cannot hang the call.
    private static func firstBytes(of stream: ResponseStream, within limit: TimeInterval?) async throws -> Data {
        let body = Locked(Data())
        let read: @Sendable () async throws -> Void = {
            for try await chunk in stream {
                if body.withLock({ $0.append(chunk); return $0.count >= HTTPFailure.bodyLimit }) { return }
            }
        }
        if let limit {
            do {
                try await AttemptTimeout.run(limit, url: nil, read)
            } catch EndpointKitError.timedOut {}
        } else {
            try await read()
        }
        return body.withLock { $0 }
    }

    /// What the attempt received: `stream`'s head with `body` (`nil`: the body streams to the
    /// caller), marked with what the cache did.
    private static func received(_ stream: ResponseStream, body: Data?) -> ReceivedResponse {
        var received = ReceivedResponse(head: stream.head, body: body ?? Data(), fileURL: nil)
        received.cacheOutcome = stream.cacheOutcome
        received.bodyIsStreamed = body == nil
        return received
    }
}
