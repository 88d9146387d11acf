import Foundation

/// The bridge from a call's `async` work to a completion handler, behind every
/// completion-handler method of a client: the work runs in a `Task`, its one result goes to the
/// handler on the client's queue, and the returned `Progress` cancels the task and counts
/// bytes. SPI for EndpointKit's client packages.
///
/// The work is the client's own `async` method, so a subclass that overrides that one method
/// changes the call both ways. Its bytes reach the `Progress` through ``reporter``, a
/// task-local that the first call to read it claims (calls made inside that call, such as a
/// credential refresh, count apart).
@_spi(Transport) public enum CompletionBridge {
    /// Where the pipeline reports the bytes of the call a completion handler waits for.
    @TaskLocal public static var reporter: Reporter?

    /// What moves the `Progress` of one completion-handler call, handed to the first call that
    /// claims it. Copies share one state: a struct, so that a call allocates only that state.
    public struct Reporter: Sendable {
        private let progress: Progress
        /// The only bytes counted: those going this way.
        private let direction: TransferProgress.Direction
        /// Whether a call has claimed it, and the count the `Progress` last showed.
        private let state = Locked((claimed: false, reported: Int64(-1)))

        init(_ progress: Progress, counting direction: TransferProgress.Direction) {
            self.progress = progress
            self.direction = direction
        }

        /// The updater, the first time; `nil` after.
        public func claim() -> (@Sendable (TransferProgress) -> Void)? {
            let first = state.withLock { state in
                defer { state.claimed = true }
                return !state.claimed
            }
            guard first else { return nil }
            return { @Sendable [self] update in report(update) }
        }

        private func report(_ update: TransferProgress) {
            guard update.direction == direction else { return }
            // Foundation's Progress is costly to update: move it in steps of about 1 %.
            let step = max(64 * 1024, (update.totalBytes ?? 0) / 100)
            // Only forward: a redirect or a retry that sends or receives again starts from 0.
            let due = state.withLock { state in
                guard update.completedBytes >= state.reported,
                    update.completedBytes - state.reported >= step || update.completedBytes == update.totalBytes
                else { return false }
                state.reported = update.completedBytes
                return true
            }
            guard due else { return }
            // Foundation's Progress traps if the total drops below the count done.
            let total = update.totalBytes.map { max($0, update.completedBytes) } ?? -1
            if total != progress.totalUnitCount { progress.totalUnitCount = total }
            progress.completedUnitCount = update.completedBytes
        }
    }

    /// Runs `work` in a task, started on the calling thread where the platform can, and hands
    /// its result to `handler` on `queue`. The returned
    /// `Progress` cancels the task, and counts the bytes the call reports going `direction`.
    public static func start<Content: Sendable>(
        on queue: DispatchQueue, counting direction: TransferProgress.Direction = .download,
        _ handler: @escaping @Sendable (Result<Content, any Error>) -> Void,
        _ work: @escaping @Sendable () async throws -> Content
    ) -> Progress {
        // Not `Progress(totalUnitCount:)`: a returned progress is the top of its own tree, and
        // does not join whichever progress is current on the caller's thread (nor look it up).
        let progress = Progress.discreteProgress(totalUnitCount: -1)
        let reporter = Reporter(progress, counting: direction)
        let task = startTask {
            let result: Result<Content, any Error>
            do {
                result = .success(try await Self.$reporter.withValue(reporter, operation: work))
            } catch {
                result = .failure(error)
            }
            if case .success = result, progress.totalUnitCount <= 0 {
                let done = max(progress.completedUnitCount, 1)
                progress.totalUnitCount = done
                progress.completedUnitCount = done
            }
            queue.async { handler(result) }
        }
        progress.cancellationHandler = { task.cancel() }
        return progress
    }

    /// A task that runs `operation` on the calling thread up to its first suspension (building
    /// and sending the request), where the platform can: one thread hop fewer per call.
    private static func startTask(_ operation: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return Task.immediate(operation: operation)
        }
        return Task(operation: operation)
    }
}
