import Foundation

/// This package's one box for shared mutable state: the value is reachable only inside
/// `withLock`.
///
/// `@unchecked Sendable` is sound because every access to `value` happens while `lock` is held,
/// and callers never let a reference to the value escape the closure.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
