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

    /// A transport answering every request with one small JSON answer from `url`, made once:
    /// 176 bytes, as nginx's `/json` of `Scripts/bench-nginx.sh`.
    public static func smallJSON(from url: URL) -> InstantTransport {
        let head = ResponseHead.response(url: url, statusCode: 200, version: "HTTP/1.1", fields: [(name: "Content-Length", value: "176")])
        let answer = ReceivedResponse(response: head, body: Data(repeating: 0x20, count: 176), fileURL: nil)
        return InstantTransport { answer }
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
