@_spi(Transport) @_spi(Locking) import EndpointKit
import Foundation

/// Refuses to send once its client has been shut down.
struct GuardedTransport: Transport {
    let isShutDown: Locked<Bool>
    let transport: any Transport

    var isOpen: Bool { isShutDown.withLock { !$0 } }

    func send(
        _ outgoing: Outgoing, into file: DownloadFile?, timeout: TimeInterval?, bodyLimit: Int,
        progress: ProgressSink?
    ) async throws -> ReceivedResponse {
        guard isShutDown.withLock({ !$0 }) else { throw EndpointKitError.clientInvalidated }
        return try await transport.send(outgoing, into: file, timeout: timeout, bodyLimit: bodyLimit, progress: progress)
    }

    func stream(_ outgoing: Outgoing, timeout: TimeInterval?) async throws -> ResponseStream {
        guard isShutDown.withLock({ !$0 }) else { throw EndpointKitError.clientInvalidated }
        return try await transport.stream(outgoing, timeout: timeout)
    }
}
