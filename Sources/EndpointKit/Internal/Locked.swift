import Foundation

/// The one box for shared mutable state in every EndpointKit package, shaped like
/// `Synchronization.Mutex` (which needs macOS 15): the value is reachable only inside
/// `withLock`. SPI (`@_spi(Locking) import EndpointKit`) so that EndpointKitTesting and the
/// client and integration packages keep their state in this same box.
///
/// `@unchecked Sendable` is sound because every access to `value` happens while `lock` is held,
/// and callers never let a reference to the value escape the closure.
@_spi(Locking) public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A box holding `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
