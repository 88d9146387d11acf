import ArgumentParser
import BookKit
import EndpointKit

/// `book-demo poll`: reads the book list again and again through the HTTP cache, as a client
/// polling a REST API does, and says how each read was answered.
struct Poll: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Poll the book list through the HTTP cache: fresh hits, then revalidations (304).")
    @OptionGroup var options: Options
    @Option(help: "How many reads.") var times = 6
    @Option(help: "Seconds between reads.") var every = 1.0

    func validate() throws {
        guard times >= 1 else { throw ValidationError("--times must be 1 or more") }
        guard every >= 0 else { throw ValidationError("--every must not be negative") }
    }

    func run() async throws {
        try await options.run(caching: true) { session in
            guard let cache = session.cache else { return }
            for read in 1...times {
                if read > 1 { try await Task.sleep(nanoseconds: UInt64(every * 1_000_000_000)) }
                let before = cache.statistics
                let books = try await session.books.fetchBooks()
                session.output.note("read \(read): \(books.count) books, \(Self.how(before, cache.statistics))")
            }
        }
    }

    /// How the read between `before` and `after` was answered.
    private static func how(_ before: CacheStatistics, _ after: CacheStatistics) -> String {
        if after.revalidated > before.revalidated { return "revalidated: the server answered 304, the stored body was used" }
        if after.staleServed > before.staleServed { return "stale, from the cache" }
        if after.hits > before.hits { return "fresh in the cache: nothing sent" }
        return "from the server (stored for the next reads)"
    }
}
