@_spi(Transport) import EndpointKit
import Foundation
import NIOCore

extension TimeAmount {
    /// `seconds` as NIO counts time: none for a negative time (or NaN), and at most about 146
    /// years, so that `.infinity`, or a limit too long to count, is as good as never and cannot
    /// overflow a deadline (see `TimeInterval.nanoseconds`).
    init(_ seconds: TimeInterval) {
        self = .nanoseconds(Int64(seconds.nanoseconds))
    }
}
