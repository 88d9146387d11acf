/// The bookkeeping both stores share: which entries there are (by id), under which key, how
/// large, and in which order they were last used, kept within a byte capacity by evicting the
/// least recently used.
struct StoreIndex {
    private struct Entry {
        let key: String
        let size: Int
        var older: String?
        var newer: String?
    }

    /// The most bytes the entries may take.
    let capacity: Int
    /// The bytes they take now.
    private(set) var size = 0
    private var entries: [String: Entry] = [:]
    private var byKey: [String: Set<String>] = [:]
    private var oldest: String?
    private var newest: String?

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// How many entries there are.
    var count: Int { entries.count }

    /// The ids of the entries under `key`.
    func ids(for key: String) -> Set<String> { byKey[key] ?? [] }

    /// Whether `id` is there.
    func contains(_ id: String) -> Bool { entries[id] != nil }

    /// Adds `id` (replacing an entry of that id) as the most recently used, then evicts the
    /// least recently used until the entries fit. Returns the ids evicted (`id` itself, and
    /// nothing else, when it alone is larger than the capacity).
    mutating func insert(_ id: String, key: String, size: Int) -> [String] {
        remove(id)
        guard size <= capacity else { return [id] }
        entries[id] = Entry(key: key, size: size, older: newest, newer: nil)
        if let newest { entries[newest]?.newer = id }
        newest = id
        if oldest == nil { oldest = id }
        byKey[key, default: []].insert(id)
        self.size += size
        var evicted: [String] = []
        while self.size > capacity, let victim = oldest, victim != id {
            remove(victim)
            evicted.append(victim)
        }
        return evicted
    }

    /// Makes `id` the most recently used.
    mutating func touch(_ id: String) {
        guard let entry = entries[id], newest != id else { return }
        unlink(id, entry)
        entries[id]?.older = newest
        entries[id]?.newer = nil
        if let newest { entries[newest]?.newer = id }
        newest = id
        if oldest == nil { oldest = id }
    }

    /// Forgets `id`; returns whether it was there.
    @discardableResult
    mutating func remove(_ id: String) -> Bool {
        guard let entry = entries[id] else { return false }
        unlink(id, entry)
        entries[id] = nil
        byKey[entry.key]?.remove(id)
        if byKey[entry.key]?.isEmpty == true { byKey[entry.key] = nil }
        size -= entry.size
        return true
    }

    /// Forgets everything; returns the ids that were there.
    mutating func removeAll() -> [String] {
        defer { self = StoreIndex(capacity: capacity) }
        return Array(entries.keys)
    }

    private mutating func unlink(_ id: String, _ entry: Entry) {
        if let older = entry.older { entries[older]?.newer = entry.newer } else { oldest = entry.newer }
        if let newer = entry.newer { entries[newer]?.older = entry.older } else { newest = entry.older }
    }
}
