import Foundation

extension CallContext {
    /// The process's random half of every call's identity, drawn once.
    private static let processPart = UUID().uuid
    /// How many calls this process has started.
    private static let started = Locked<UInt64>(0)

    /// A new call's identity: this process's random half, then a count of its calls. Unique
    /// like a random UUID without a system call for randomness per call (`UUID()` on Linux
    /// reads the kernel's generator, a measurable share of a small call's cost).
    static func nextID() -> UUID {
        let count = started.withLock { count in
            count &+= 1
            return count
        }
        var bytes = processPart
        withUnsafeMutableBytes(of: &bytes) { raw in
            for index in 0..<8 { raw[8 + index] ^= UInt8(truncatingIfNeeded: count >> (8 * index)) }
        }
        return UUID(uuid: bytes)
    }
}
