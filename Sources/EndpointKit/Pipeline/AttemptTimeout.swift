import Foundation

/// The per-attempt time limit, the same for every transport: the work races a timer, and when
/// the timer wins the work is cancelled (its transfer stopped) and the attempt fails with
/// ``EndpointKitError/timedOut(url:limit:)``. SPI for EndpointKit's client packages.
@_spi(Transport) public enum AttemptTimeout {
    /// Runs `work`, failing with ``EndpointKitError/timedOut(url:limit:)`` after `limit`
    /// seconds. Without a limit, call the work directly: making an escaping closure of it
    /// costs an allocation. Never inlined: its task group would take room in every caller's
    /// task, timer or not.
    @inline(never)
    public static func run<T: Sendable>(
        _ limit: TimeInterval, url: URL?, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(nanoseconds: limit.nanoseconds)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw EndpointKitError.timedOut(url: url, limit: limit)
            }
            return value
        }
    }
}
