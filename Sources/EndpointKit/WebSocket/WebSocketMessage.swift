import Foundation

/// One message of a ``WebSocket``: text or binary, whole (fragments are joined).
public enum WebSocketMessage: Sendable, Equatable {
    /// A text message.
    case text(String)
    /// A binary message.
    case binary(Data)
}
