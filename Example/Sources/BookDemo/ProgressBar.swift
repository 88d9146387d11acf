import EndpointKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Draws `label [#####.....]  45%  1.2 MB of 2.6 MB` on standard error as bytes move one way,
/// redrawn when the percentage changes. Off when standard error is not a terminal.
final class ProgressBar: Sendable {
    private let label: String
    private let direction: TransferProgress.Direction
    private let enabled: Bool
    private let drawn = Mutex<String?>(nil)

    init(_ label: String, _ direction: TransferProgress.Direction, enabled: Bool = true) {
        self.label = label
        self.direction = direction
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// Redraws the bar for `progress`, if it is this bar's direction and shows something new.
    func update(_ progress: TransferProgress) {
        guard enabled, progress.direction == direction else { return }
        let line = Self.line(label, progress)
        let changed = drawn.withLock { drawn in
            defer { drawn = line }
            return drawn != line
        }
        if changed { FileHandle.standardError.write(Data(("\r" + line).utf8)) }
    }

    /// Ends the bar's line.
    func finish() {
        guard enabled, drawn.withLock({ $0 != nil }) else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }

    static func line(_ label: String, _ progress: TransferProgress) -> String {
        let done = megabytes(progress.completedBytes)
        guard let total = progress.totalBytes, total > 0 else { return "\(label) \(done)" }
        let fraction = min(1, Double(progress.completedBytes) / Double(total))
        let filled = Int(fraction * 30)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled)
        return "\(label) [\(bar)] \(String(format: "%3d", Int(fraction * 100)))%  \(done) of \(megabytes(total))"
    }

    private static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
