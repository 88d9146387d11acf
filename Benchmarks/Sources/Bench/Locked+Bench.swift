@_spi(Locking) import EndpointKit

/// Shorthands for the benchmark's shared state, kept in EndpointKit's one lock type.
extension Locked {
    /// A copy of the value.
    var value: Value { withLock { $0 } }

    /// Changes the value.
    func update(_ body: (inout Value) -> Void) { withLock(body) }
}
