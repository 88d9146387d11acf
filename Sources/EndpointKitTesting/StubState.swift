import Foundation

/// The stub client's stubs and recorded calls, behind a lock: this module's one box for shared
/// mutable state.
///
/// `@unchecked Sendable` is sound because `stubs` is touched only inside `withLock`.
final class StubState: @unchecked Sendable {
    struct Stubs {
        var answers: [StubClient.Answer] = []
        var calls: [StubClient.Call] = []
    }

    private let lock = NSLock()
    private var stubs = Stubs()

    func withLock<Result>(_ body: (inout Stubs) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stubs)
    }
}
