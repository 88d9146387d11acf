/// How far a transfer has come: bytes sent (upload) or received (download).
///
/// Reported as bytes move, never decreasing; the last report of a successful transfer has
/// `completedBytes == totalBytes`. `totalBytes` is `nil` while the length is unknown (a chunked
/// or compressed response, a stream body).
public struct TransferProgress: Sendable, Equatable, CustomStringConvertible {
    /// Which way the bytes go.
    public enum Direction: Sendable, Equatable {
        /// The request body, being sent.
        case upload
        /// The response body, being received.
        case download
    }

    /// Which way the bytes go.
    public let direction: Direction
    /// Bytes sent or received so far (for a resumed download, counting the bytes already on disk).
    public let completedBytes: Int64
    /// The whole body's size, when known.
    public let totalBytes: Int64?
    /// How ``cancel()`` reaches the call that made the report.
    private var cancellation: ProgressCancellation?

    /// Creates a progress report.
    public init(direction: Direction, completedBytes: Int64, totalBytes: Int64?) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// Cancels the call that reported this progress, from inside its progress handler: the
    /// transfer stops at once (no later report, no more bytes written), and the call throws
    /// `CancellationError` as if its task had been cancelled. A download keeps what it wrote
    /// for a resumable file. Does nothing on a report a client did not make.
    ///
    /// ```swift
    /// let file = try await client.download(LargeFile()) { progress in
    ///     if progress.completedBytes > quota { progress.cancel() }
    /// }
    /// ```
    public func cancel() {
        cancellation?.cancel()
    }

    /// This report, able to cancel its call through `cancellation`.
    package func cancelling(with cancellation: ProgressCancellation) -> TransferProgress {
        var report = self
        report.cancellation = cancellation
        return report
    }

    /// Reports are equal when they say the same; which call made them does not count.
    public static func == (lhs: TransferProgress, rhs: TransferProgress) -> Bool {
        lhs.direction == rhs.direction && lhs.completedBytes == rhs.completedBytes && lhs.totalBytes == rhs.totalBytes
    }

    /// `completedBytes / totalBytes`, when the total is known.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return totalBytes == 0 ? 1 : nil }
        return Double(completedBytes) / Double(totalBytes)
    }

    /// For example `upload 1048576/52428800 bytes (2%)`.
    public var description: String {
        let total = totalBytes.map(String.init) ?? "?"
        let percent = fractionCompleted.map { " (\(Int($0 * 100))%)" } ?? ""
        return "\(direction) \(completedBytes)/\(total) bytes\(percent)"
    }
}
