import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one point where the cache joins a call: in front of the transport, it answers each
/// request the pipeline sends (each redirect too) from the cache, the origin, or both. Downloads
/// pass straight through, and so do streams whose endpoint gives no `cachePolicy` (Server-Sent
/// Events and the like). ``Pipeline`` puts it there when the client has a cache.
struct CachingTransport: Transport {
    let cache: HTTPCache
    let transport: any Transport

    var isOpen: Bool { transport.isOpen }

    nonisolated(nonsending) func send(
        _ outgoing: Outgoing, into file: DownloadFile?, timeout: TimeInterval?, bodyLimit: Int, progress: ProgressSink?
    ) async throws -> ReceivedResponse {
        let transport = self.transport
        guard file == nil else {
            return try await transport.send(outgoing, into: file, timeout: timeout, bodyLimit: bodyLimit, progress: progress)
        }
        guard transport.isOpen else { throw EndpointKitError.clientInvalidated }
        return try await cache.exchange(
            outgoing,
            send: { try await transport.send($0, into: nil, timeout: timeout, bodyLimit: bodyLimit, progress: progress) },
            background: { try await transport.send($0, into: nil, timeout: timeout, bodyLimit: bodyLimit, progress: nil) })
    }

    nonisolated(nonsending) func stream(_ outgoing: Outgoing, timeout: TimeInterval?) async throws -> ResponseStream {
        let transport = self.transport
        guard outgoing.cachePolicy != nil else { return try await transport.stream(outgoing, timeout: timeout) }
        guard transport.isOpen else { throw EndpointKitError.clientInvalidated }
        return try await cache.stream(
            outgoing, open: { try await transport.stream($0, timeout: timeout) },
            background: { try await transport.send($0, into: nil, timeout: timeout, bodyLimit: HTTPCache.streamedBodyLimit, progress: nil) })
    }
}
