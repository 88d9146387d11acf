import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sees the life of every call as typed events: logging, metrics and tracing hook in here.
///
/// For each call, in order: ``callStarted(_:)`` once; for each attempt ``attemptStarted(_:)``,
/// any ``redirectFollowed(_:)``, then ``attemptFinished(_:)``; ``retryScheduled(_:)`` between
/// a failed attempt and the next; and ``callFinished(_:)`` once, before the caller gets the
/// result. A call that fails before its first attempt is sent (its request cannot be built, an
/// adapter throws, it is cancelled first) still gets ``callStarted(_:)`` and
/// ``callFinished(_:)``. Streams and WebSocket handshakes finish when the response head (or the
/// handshake) is accepted; a stream's body is read after that, so its size is not in the events
/// (``AttemptFinished/bodyIsStreamed``). Every event carries the call's ``CallContext``, and
/// runs with it as ``CallContext/current``.
///
/// Every method has a default that does nothing: implement only what you need. Give a client
/// several (`monitors: [logging, metrics]`); they are told in that order. Events run on the
/// thread that moves the call along, on the path of every call: keep them quick. A client with
/// no monitor and no response observer makes no event at all.
public protocol CallMonitor: Sendable {
    /// The call's first request is built and adapted (or the call failed before that).
    func callStarted(_ event: CallStarted)
    /// An attempt is about to be sent.
    func attemptStarted(_ event: AttemptStarted)
    /// Header fields to add to the attempt's request (a trace context, say), asked right after
    /// ``attemptStarted(_:)``; they go with the attempt's redirects too. A field already on the
    /// request is replaced.
    func headers(for attempt: AttemptStarted) -> [(name: String, value: String)]
    /// The attempt's request was answered with a redirect, which is followed.
    func redirectFollowed(_ event: RedirectFollowed)
    /// The attempt ended: a response (any status) or an error.
    func attemptFinished(_ event: AttemptFinished)
    /// The attempt failed and the call will be sent again after a delay.
    func retryScheduled(_ event: RetryScheduled)
    /// The call ended, with its content or its error; the caller is told next.
    func callFinished(_ event: CallFinished)
    /// The client's ``OverloadPolicy`` decided something for the call: a retry refused, a
    /// circuit opened or closed, a wait in a host's queue, a hedge sent. Told when it happens,
    /// between the call's other events.
    func overloadDecision(_ event: OverloadDecision)
}

extension CallMonitor {
    /// Does nothing.
    public func callStarted(_ event: CallStarted) {}
    /// Does nothing.
    public func attemptStarted(_ event: AttemptStarted) {}
    /// None.
    public func headers(for attempt: AttemptStarted) -> [(name: String, value: String)] { [] }
    /// Does nothing.
    public func redirectFollowed(_ event: RedirectFollowed) {}
    /// Does nothing.
    public func attemptFinished(_ event: AttemptFinished) {}
    /// Does nothing.
    public func retryScheduled(_ event: RetryScheduled) {}
    /// Does nothing.
    public func callFinished(_ event: CallFinished) {}
    /// Does nothing.
    public func overloadDecision(_ event: OverloadDecision) {}
}
