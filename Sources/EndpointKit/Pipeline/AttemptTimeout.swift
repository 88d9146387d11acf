import Foundation

/// The per-attempt time limit, the same for every transport: the work races a timer, and when
/// the timer wins the work is cancelled (its transfer stopped) and the attempt fails with
/// ``EndpointKitError/timedOut(url:limit:)``. SPI for EndpointKit's client packages.
@_spi(Transport) public enum AttemptTimeout {
    /// How one of the two racers ended.
    private enum Finish<T: Sendable>: Sendable {
        case done(T)
        case timedOut
        /// The timer was cancelled with the caller: the work, cancelled too, says how the attempt
        /// ends. A value it had already (a downloaded file) is not dropped for the timer's error.
        case timerCancelled
    }

    /// Runs `work`, failing with ``EndpointKitError/timedOut(url:limit:)`` after `limit`
    /// seconds. Without a limit, call the work directly: making an escaping closure of it
    /// costs an allocation. Never inlined: its task group would take room in every caller's
    /// task, timer or not.
    @inline(never)
    public static func run<T: Sendable>(
        _ limit: TimeInterval, url: URL?, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: Finish<T>.self) { group in
            group.addTask { .done(try await work()) }
            group.addTask {
                do {
                    try await Task.sleep(nanoseconds: limit.nanoseconds)
                } catch {
                    return .timerCancelled
                }
                return .timedOut
            }
            defer { group.cancelAll() }
            while let first = try await group.next() {
                switch first {
                case .done(let value): return value
                case .timedOut: throw EndpointKitError.timedOut(url: url, limit: limit)
                case .timerCancelled: continue
                }
            }
            throw CancellationError()
        }
    }
}
