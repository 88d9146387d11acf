import Foundation

/// What a client keeps about each host it calls (a circuit, answer times), forgetting the hosts
/// it has not called lately: a client that calls ever new hosts (webhooks, a host per tenant)
/// holds memory for the hosts of the last while, not for every host it ever called.
///
/// Stale entries are looked for when the table has doubled since it was last looked through,
/// so each entry is looked at a bounded number of times, whatever the number of hosts.
struct HostTable<Entry> {
    private var entries: [String: Entry] = [:]
    /// The count at which the table is looked through next.
    private var sweepAt = Self.smallest

    private static var smallest: Int { 64 }

    /// How many hosts have an entry.
    var count: Int { entries.count }

    /// `host`'s entry.
    subscript(host: String) -> Entry? {
        get { entries[host] }
        set { entries[host] = newValue }
    }

    /// Changes `host`'s entry in place (`fresh` when it has none), then forgets the stale
    /// entries if it is time to look for them.
    mutating func update<Result>(
        _ host: String, fresh: @autoclosure () -> Entry, isStale: (Entry) -> Bool, _ body: (inout Entry) -> Result
    ) -> Result {
        let result = body(&entries[host, default: fresh()])
        if entries.count >= sweepAt {
            entries = entries.filter { !isStale($0.value) }
            sweepAt = max(Self.smallest, entries.count * 2)
        }
        return result
    }
}
