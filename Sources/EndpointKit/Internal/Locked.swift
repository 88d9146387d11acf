/// The one box for shared mutable state in every EndpointKit package, shaped like
/// `Synchronization.Mutex` (which needs macOS 15): the value is reachable only inside
/// `withLock`. SPI (`@_spi(Locking) import EndpointKit`) so that EndpointKitTesting and the
/// client and integration packages keep their state in this same box.
///
/// A handle: copies share one value and one lock, kept together in a single allocation
/// (``LockedStorage``), which is all a box costs. Inlinable, so that each package specialises it
/// for its own values: no unspecialised generic call, and no metadata lookup, for each lock.
///
/// `@unchecked Sendable` is sound because every access to the value happens while the lock is
/// held, and callers never let a reference to the value escape the closure. (The storage
/// cannot say so itself: Swift marks `ManagedBuffer` as never `Sendable`.)
@_spi(Locking) public struct Locked<Value>: @unchecked Sendable {
    @usableFromInline let storage: LockedStorage<Value>

    /// A box holding `value`.
    @inlinable public init(_ value: Value) {
        storage = LockedStorage.holding(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}
