import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Foundation's idle timeout for this request under an attempt's time limit of `limit`
    /// seconds: its `timeoutInterval`, kept past the limit (Foundation takes whole seconds, and
    /// 0 would mean none), so that the limit is the one that ends the attempt; and at most
    /// about 68 years, since on Linux it becomes an `Int` of milliseconds, and past that (at
    /// `.infinity`, say) the transfer would crash the process.
    ///
    /// Set on the request only as URLSession gets it: the other transports have no use for it,
    /// and changing a request copies it whole.
    func idleTimeout(past limit: TimeInterval?) -> TimeInterval {
        var interval = timeoutInterval
        if let idle = limit.map({ $0.rounded(.up) + 1 }), interval < idle { interval = idle }
        let longest: TimeInterval = 2_147_483_648
        return interval <= longest ? interval : longest
    }
}
