/// How a cache has been used since it was made: ``HTTPCache/statistics``, counted as OkHttp's
/// cache counts. Redirects are counted once per request they make.
public struct CacheStatistics: Sendable, Equatable {
    /// `GET` requests that went through the cache.
    public internal(set) var requests = 0
    /// Requests sent to the origin: misses, revalidations (background ones included) and reloads.
    public internal(set) var networkRequests = 0
    /// Requests answered with a stored body: fresh hits, revalidated answers and stale ones.
    public internal(set) var hits = 0
    /// Of the hits, those the origin confirmed with `304 Not Modified`.
    public internal(set) var revalidated = 0
    /// Of the hits, those served stale.
    public internal(set) var staleServed = 0

    /// Counters at zero.
    public init() {}
}

extension CacheStatistics {
    /// Counts a request the cache answered with `outcome`.
    mutating func add(_ outcome: CacheOutcome?) {
        switch outcome {
        case .hit: hits += 1
        case .revalidated:
            hits += 1
            revalidated += 1
        case .stale:
            hits += 1
            staleServed += 1
        case .miss, nil: break
        }
    }
}
