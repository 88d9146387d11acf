import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A private HTTP cache (RFC 9111, with RFC 5861's `stale-while-revalidate` and
/// `stale-if-error`) for either client, on Linux as on Apple platforms; Foundation's `URLCache`
/// is not used.
///
/// Give it to a client (`URLSessionClient(baseURL:cache:)`); every `GET` it sends then goes
/// through the cache: a fresh stored answer is served without a request, a stale one is
/// revalidated with `If-None-Match` / `If-Modified-Since` (a `304` serves the stored body as a
/// normal answer), and a successful `POST`, `PUT`, `PATCH` or `DELETE` drops what is stored for
/// its URL. Each call can choose a ``CachePolicy``; monitors are told each call's
/// ``CacheOutcome``; ``statistics`` counts them all.
///
/// ```swift
/// let cache = HTTPCache(store: try DiskCacheStore(directory: cachesURL))
/// let client = URLSessionClient(baseURL: api, cache: cache)
/// ```
///
/// Answers are stored only where HTTP allows: not with `no-store`, not `Vary: *`, not a partial
/// answer, and not the answer to a request with `Authorization` unless it says `public`,
/// `s-maxage` or `must-revalidate`. One cache may serve several clients.
public final class HTTPCache: Sendable {
    private struct State {
        var statistics = CacheStatistics()
        /// Entries being revalidated in the background, so each is revalidated once at a time.
        var revalidating: Set<String> = []
    }

    /// Where the answers are kept.
    public let store: any HTTPCacheStore
    /// The time, read at each lookup and exchange: injectable, so tests take no real time.
    let clock: @Sendable () -> Date
    private let state = Locked(State())

    /// A cache keeping its answers in `store` (in memory, 10 MiB, by default).
    ///
    /// - Parameters:
    ///   - store: Where answers are kept: a ``MemoryCacheStore``, a ``DiskCacheStore``, or your own.
    ///   - clock: Now; the system clock by default. Give another to test freshness without waiting.
    public init(store: any HTTPCacheStore = MemoryCacheStore(), clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.clock = clock
    }

    /// How the cache has been used so far.
    public var statistics: CacheStatistics { state.withLock { $0.statistics } }

    /// Removes every stored answer.
    public func removeAll() async {
        await store.removeAll()
    }

    /// Removes the answers stored for `url`.
    public func removeResponses(for url: URL) async {
        await store.removeResponses(for: Self.key(for: url))
    }

    /// The store's key for `GET` answers from `url`: the method and the URL without fragment.
    static func key(for url: URL) -> String {
        let string = url.absoluteString
        return "GET " + (string.firstIndex(of: "#").map { String(string[..<$0]) } ?? string)
    }

    /// Counts with the statistics.
    func count(_ change: (inout CacheStatistics) -> Void) {
        state.withLock { change(&$0.statistics) }
    }

    /// Marks the entry `id` as being revalidated; `false` if it already is.
    func beginRevalidating(_ id: String) -> Bool {
        state.withLock { $0.revalidating.insert(id).inserted }
    }

    /// The entry `id` is revalidated.
    func endRevalidating(_ id: String) {
        _ = state.withLock { $0.revalidating.remove(id) }
    }
}
