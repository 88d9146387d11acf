import Foundation

extension TimeInterval {
    /// These seconds in nanoseconds, for `Task.sleep` and the uptime clock: 0 for a negative
    /// time (or NaN), and at most about 146 years: a longer one, `.infinity` included, is as good
    /// as never, and would not fit (the conversion would crash). SPI for EndpointKit's client
    /// packages.
    @_spi(Transport) public var nanoseconds: UInt64 {
        guard self > 0 else { return 0 }
        return self < Self.longestNanoseconds / 1e9 ? UInt64(self * 1e9) : UInt64(Self.longestNanoseconds)
    }

    /// About 146 years in nanoseconds: half of what `Int64` holds, so that adding it to the
    /// uptime, as a timer does, cannot overflow either.
    private static let longestNanoseconds = Double(Int64.max / 2)
}
