/// What the cache did for one call: told to monitors in ``AttemptFinished/cache`` and
/// ``CallFinished/cache`` (`nil` there when the client has no cache or the call did not use it:
/// methods other than `GET`, downloads, streams, requests with `Cache-Control: no-store`).
public enum CacheOutcome: Sendable, Equatable, CustomStringConvertible {
    /// A fresh stored answer was served; nothing was sent.
    case hit
    /// Nothing stored could be used: the origin answered (and its answer was stored, if allowed).
    case miss
    /// A stored answer was revalidated: the origin answered `304 Not Modified`, and the stored
    /// body was served with the refreshed header fields as a normal answer (unless the caller
    /// made the conditional request itself: then it gets the `304`).
    case revalidated
    /// A stale stored answer was served, for the reason given.
    case stale(StaleReason)

    /// Why a stale answer was served.
    public enum StaleReason: Sendable, Equatable {
        /// `stale-while-revalidate`: served at once, revalidated in the background.
        case revalidatingInBackground
        /// `stale-if-error`: the origin failed, with this status (5xx), or with a transport
        /// error or timeout (`nil`).
        case originFailed(status: Int?)
        /// The caller accepted it: ``CachePolicy/onlyIfCached``,
        /// ``CachePolicy/returnStaleElseLoad``, or a request's `Cache-Control: max-stale`.
        case acceptedByCaller
    }

    /// `hit`, `miss`, `revalidated`, or `stale (why)`.
    public var description: String {
        switch self {
        case .hit: "hit"
        case .miss: "miss"
        case .revalidated: "revalidated"
        case .stale(.revalidatingInBackground): "stale (revalidating in the background)"
        case .stale(.originFailed(let status)): "stale (origin failed\(status.map { " with HTTP \($0)" } ?? ""))"
        case .stale(.acceptedByCaller): "stale (accepted by the caller)"
        }
    }
}
