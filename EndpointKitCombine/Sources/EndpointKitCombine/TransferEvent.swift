import EndpointKit

/// What an upload or download publisher emits: progress as bytes move (only while the
/// subscriber has demand: progress values supersede each other), then the content once.
public enum TransferEvent<Content: Sendable>: Sendable {
    /// Bytes moved so far.
    case progress(TransferProgress)
    /// The transfer finished; the publisher completes right after.
    case completed(Content)

    /// The content, for the `.completed` event.
    public var content: Content? {
        if case .completed(let content) = self { content } else { nil }
    }
}
