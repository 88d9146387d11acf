@_spi(Transport) import EndpointKit
import Foundation

/// A transport that answers every request at once, with what `answer` makes: EndpointKit's own
/// steps of a call measured without I/O (`Bench pipeline`, `Instructions pipeline`).
@_spi(Transport) public struct InstantTransport: Transport {
    /// Makes each answer.
    public let answer: @Sendable () -> ReceivedResponse
    /// Whether each send suspends once (yields) before it answers, as a real one waits.
    public var yields = false

    /// A transport answering with what `answer` makes.
    public init(_ answer: @escaping @Sendable () -> ReceivedResponse) {
        self.answer = answer
    }

    /// Answers at once (after one yield, if ``yields``).
    public nonisolated(nonsending) func send(
        _ outgoing: Outgoing, into file: DownloadFile?, timeout: TimeInterval?, bodyLimit: Int, progress: ProgressSink?
    ) async throws -> ReceivedResponse {
        if yields { await Task.yield() }
        return answer()
    }

    /// Not measured.
    public nonisolated(nonsending) func stream(_ outgoing: Outgoing, timeout: TimeInterval?) async throws -> ResponseStream {
        throw CancellationError()
    }
}
