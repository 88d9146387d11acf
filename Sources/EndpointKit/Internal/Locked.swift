import Foundation

/// The package's one box for shared mutable state, shaped like `Synchronization.Mutex`
/// (which needs macOS 15): the value is reachable only inside `withLock`.
///
/// `@unchecked Sendable` is sound because every access to `value` happens while `lock` is held,
/// and callers never let a reference to the value escape the closure. `package` so that
/// EndpointKitTesting keeps its state in this same box.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
