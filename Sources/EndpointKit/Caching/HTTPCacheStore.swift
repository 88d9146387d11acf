/// Where an ``HTTPCache`` keeps its answers: ``MemoryCacheStore`` or ``DiskCacheStore``, or your
/// own (a shared Redis, say). Keys are the cache's: method and URL; the answers under one key
/// differ by their ``CachedResponse/variant``.
///
/// A store never fails a call: an answer it cannot read is not returned, one it cannot write is
/// not stored. It must be safe to use from many calls at once.
public protocol HTTPCacheStore: Sendable {
    /// The answers stored under `key`, one per variant; none if there are none.
    func responses(for key: String) async -> [CachedResponse]
    /// Stores `response` under `key`, replacing the one with the same
    /// ``CachedResponse/variant``; one larger than the store's capacity is not stored.
    func store(_ response: CachedResponse, for key: String) async
    /// Removes every answer stored under `key`.
    func removeResponses(for key: String) async
    /// Removes every answer.
    func removeAll() async
}
