/// Keeps answers in memory, within a byte capacity, evicting the least recently used. Safe to
/// share between clients and calls. What it holds is gone when the process ends; see
/// ``DiskCacheStore`` for answers that outlive it.
public final class MemoryCacheStore: HTTPCacheStore {
    private struct State {
        var index: StoreIndex
        var responses: [String: CachedResponse] = [:]
    }

    private let state: Locked<State>

    /// A store of at most `capacity` bytes (bodies, header fields and URLs); 10 MiB by default.
    public init(capacity: Int = 10 << 20) {
        state = Locked(State(index: StoreIndex(capacity: capacity)))
    }

    /// The bytes it holds now.
    public var size: Int { state.withLock { $0.index.size } }

    /// How many answers it holds now.
    public var count: Int { state.withLock { $0.index.count } }

    /// The answers under `key`, each now the most recently used.
    public func responses(for key: String) async -> [CachedResponse] {
        state.withLock { state in
            state.index.ids(for: key).compactMap { id in
                state.index.touch(id)
                return state.responses[id]
            }
        }
    }

    /// Stores `response`, evicting the least recently used answers to make room.
    public func store(_ response: CachedResponse, for key: String) async {
        let id = key + "\n" + response.variant
        state.withLock { state in
            for evicted in state.index.insert(id, key: key, size: response.size) { state.responses[evicted] = nil }
            if state.index.contains(id) { state.responses[id] = response }
        }
    }

    /// Removes the answers under `key`.
    public func removeResponses(for key: String) async {
        state.withLock { state in
            for id in state.index.ids(for: key) {
                state.index.remove(id)
                state.responses[id] = nil
            }
        }
    }

    /// Removes every answer.
    public func removeAll() async {
        state.withLock { state in
            _ = state.index.removeAll()
            state.responses = [:]
        }
    }
}
