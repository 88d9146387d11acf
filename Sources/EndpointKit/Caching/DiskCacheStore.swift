import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps answers in files in one directory, within a byte capacity, evicting the least
/// recently used; they outlive the process.
///
/// Each answer is one file, written under a temporary name and then renamed into place, so a
/// process killed in the middle of a write leaves the old answer or the new one, never a torn
/// one; each file also carries its lengths and a checksum, checked on every read, so a file
/// damaged some other way (a power cut) is dropped instead of served. Temporary files left by a
/// killed process are deleted when the store is next opened.
///
/// Nothing outside `directory` is written. One store at a time should use a directory: two
/// processes (or two stores in one process) sharing it would each evict by their own count.
/// After a restart, the least recently *written* answers are evicted first.
public final class DiskCacheStore: HTTPCacheStore {
    /// The directory the answers are kept in.
    public let directory: URL
    private let index: Locked<StoreIndex>

    /// Opens the store in `directory` (made if missing), of at most `capacity` bytes (50 MiB by
    /// default), taking in the answers already there and deleting what is not a sound entry.
    ///
    /// - Throws: The file system's error when the directory cannot be made or read.
    public init(directory: URL, capacity: Int = 50 << 20) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var index = StoreIndex(capacity: capacity)
        let files = try FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: [.contentModificationDateKey], options: [.skipsHiddenFiles])
        var found: [(id: String, key: String, size: Int, date: Date)] = []
        for file in files {
            let name = file.lastPathComponent
            if name.hasSuffix(".tmp") {
                try? FileManager.default.removeItem(at: file)
            } else if name.hasSuffix(".entry") {
                let identity = CacheEntryFile.identity(at: file)
                let id = identity.map { $0.key + "\n" + $0.variant }
                guard let identity, let id, name == CacheEntryFile.name(for: id) + ".entry" else {
                    try? FileManager.default.removeItem(at: file)
                    continue
                }
                let date = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
                found.append((id, identity.key, identity.size, date ?? .distantPast))
            }
        }
        for entry in found.sorted(by: { $0.date < $1.date }) {
            for evicted in index.insert(entry.id, key: entry.key, size: entry.size) {
                unlink(Self.file(for: evicted, in: directory).path)
            }
        }
        self.index = Locked(index)
    }

    /// The bytes its files take now.
    public var size: Int { index.withLock { $0.size } }

    /// How many answers it holds now.
    public var count: Int { index.withLock { $0.count } }

    /// The answers under `key`, each now the most recently used; a file that is no longer a
    /// sound entry is deleted and not returned.
    public func responses(for key: String) async -> [CachedResponse] {
        let ids = index.withLock { index in
            let ids = index.ids(for: key)
            for id in ids { index.touch(id) }
            return ids
        }
        return ids.compactMap { id in
            let url = file(for: id)
            guard let data = try? Data(contentsOf: url) else { return nil }
            guard let (storedKey, response) = CacheEntryFile.decode(data), storedKey == key,
                key + "\n" + response.variant == id
            else {
                index.withLock { index in
                    index.remove(id)
                    unlink(url.path)
                }
                return nil
            }
            return response
        }
    }

    /// Writes `response` to a temporary file, then renames it into place and evicts the least
    /// recently used answers to make room. A failed write stores nothing.
    public func store(_ response: CachedResponse, for key: String) async {
        let id = key + "\n" + response.variant
        let target = file(for: id)
        let temporary = directory.appendingPathComponent(UUID().uuidString + ".tmp")
        guard let data = try? CacheEntryFile.encode(response, key: key), data.count <= index.withLock({ $0.capacity }),
            (try? data.write(to: temporary)) != nil
        else {
            try? FileManager.default.removeItem(at: temporary)
            // What was stored for this variant is older than the answer that could not be kept.
            index.withLock { index in
                if index.remove(id) { unlink(target.path) }
            }
            return
        }
        index.withLock { index in
            guard rename(temporary.path, target.path) == 0 else {
                unlink(temporary.path)
                return
            }
            for evicted in index.insert(id, key: key, size: data.count) { unlink(file(for: evicted).path) }
        }
    }

    /// Deletes the answers under `key`.
    public func removeResponses(for key: String) async {
        index.withLock { index in
            for id in index.ids(for: key) {
                index.remove(id)
                unlink(file(for: id).path)
            }
        }
    }

    /// Deletes every answer.
    public func removeAll() async {
        index.withLock { index in
            for id in index.removeAll() { unlink(file(for: id).path) }
        }
    }

    private func file(for id: String) -> URL { Self.file(for: id, in: directory) }

    private static func file(for id: String, in directory: URL) -> URL {
        directory.appendingPathComponent(CacheEntryFile.name(for: id) + ".entry")
    }
}
