import Foundation

/// The most calls a client has in flight to one host (a bulkhead), and how many more may wait.
///
/// A call beyond ``maximumInFlight`` waits, in order of arrival, for one to finish; beyond
/// ``maximumQueued`` waiting, it fails at once with
/// ``EndpointKitError/tooManyCalls(host:limit:)``, so a slow dependency cannot make calls pile
/// up without bound. A waiting call that is cancelled leaves the queue at once; the wait counts
/// against the call's timeout (and its ``CallDeadline``), and a call still waiting when that
/// passes leaves the queue with ``EndpointKitError/timedOut(url:limit:)``, unsent, as does one
/// whose place comes with less than a millisecond of it left; the error names the whole
/// timeout, the wait included. A call holds
/// its place while its request is sent and its response read (for a stream, until the head
/// has arrived). One limit per host (and port), kept by the client.
public struct ConcurrencyLimit: Sendable, Equatable {
    /// The most calls in flight to one host.
    public var maximumInFlight: Int
    /// The most calls waiting for one host; 0 fails every call beyond the limit at once.
    public var maximumQueued: Int

    /// Creates a limit.
    public init(maximumInFlight: Int, maximumQueued: Int = 1_000) {
        self.maximumInFlight = max(1, maximumInFlight)
        self.maximumQueued = max(0, maximumQueued)
    }
}
