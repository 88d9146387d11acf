import Foundation

/// Stops calling a host that keeps failing, for a while, then lets a few calls probe it.
///
/// - **Closed** (normal): each call's outcome is counted over the last ``window`` seconds. A
///   5xx status, a timeout or a transport failure is a failure; any other answer, 4xx included,
///   is a success (the server is up and speaking); a cancelled call is not counted. With at
///   least ``minimumCalls`` calls in the window and a failure share of ``failureRatio`` or more
///   (or ``consecutiveFailures`` failures in a row), the circuit opens.
/// - **Open**: calls to the host fail at once with ``EndpointKitError/circuitOpen(host:until:)``,
///   without touching the network, for ``openDuration`` seconds.
/// - **Half-open**: then up to ``probes`` calls go through; if they all succeed the circuit
///   closes, if one fails it opens again. Probes that have not all answered within ``window``
///   seconds (a host that hangs, a call without a time limit) no longer hold the circuit: the
///   next call probes in their place.
///
/// One circuit per host (and port), kept by the client. A host not called for ``window``
/// seconds (past its open time, when open) starts afresh, closed with nothing counted: such a
/// pause breaks a run of failures too, and a client that calls ever new hosts (webhooks, a host
/// per tenant) does not keep a circuit for every host it ever called. The defaults: 50 % of at least 20 calls
/// in 10 s, open for 5 s, one probe (the Resilience article sets them beside other libraries').
public struct CircuitBreaker: Sendable, Equatable {
    /// The failure share over the window at which the circuit opens, from 0 to 1.
    public var failureRatio: Double
    /// The fewest calls in the window for the failure share to count.
    public var minimumCalls: Int
    /// How far back outcomes are counted, in seconds.
    public var window: TimeInterval
    /// Failures in a row that open the circuit whatever the share; `nil` for none.
    public var consecutiveFailures: Int?
    /// How long the circuit stays open before it lets probes through, in seconds.
    public var openDuration: TimeInterval
    /// How many calls may probe a half-open circuit at once.
    public var probes: Int

    /// Creates a breaker; every parameter has the default described above.
    public init(
        failureRatio: Double = 0.5, minimumCalls: Int = 20, window: TimeInterval = 10,
        consecutiveFailures: Int? = nil, openDuration: TimeInterval = 5, probes: Int = 1
    ) {
        self.failureRatio = failureRatio
        self.minimumCalls = minimumCalls
        self.window = window
        self.consecutiveFailures = consecutiveFailures
        self.openDuration = openDuration
        self.probes = probes
    }
}
