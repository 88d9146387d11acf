/// One event of a `text/event-stream` (Server-Sent Events).
public struct ServerSentEvent: Sendable, Equatable {
    /// The event type: the `event` field, `"message"` when absent.
    public var event: String
    /// The `data` lines, joined with `"\n"`.
    public var data: String
    /// The last event ID seen on the stream (the `id` field of this or an earlier event).
    public var id: String?
    /// The reconnection time the server asked for with this event's `retry` field, in milliseconds.
    public var retry: Int?

    /// Creates an event.
    public init(event: String = "message", data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}
