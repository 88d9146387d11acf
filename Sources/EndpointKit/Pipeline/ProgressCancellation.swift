/// A progress handler's request to cancel its call (``TransferProgress/cancel()``), which the
/// pipeline checks after each report it passes on. Copies share one flag: each cancels the same
/// call.
package struct ProgressCancellation: Sendable {
    private let requested = Locked(false)

    package init() {}

    /// Asks for the call to be cancelled.
    package func cancel() {
        requested.withLock { $0 = true }
    }

    /// Whether ``cancel()`` was called.
    package var isRequested: Bool { requested.withLock { $0 } }
}
