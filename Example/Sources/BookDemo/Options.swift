import ArgumentParser
import BookKit
import DemoServer
import EndpointKit
import EndpointKitTelemetry
import Logging

/// The options every command takes, and the session they open.
struct Options: ParsableArguments {
    @Option(help: "The book API to call instead of the embedded demo server, e.g. http://localhost:8080.")
    var baseURL: String?

    @Option(help: "The quotes API (shaped like Quotable), e.g. https://api.quotable.io. Default: <base-url>/quotable.")
    var quotesURL: String?

    @Flag(help: "Print results as JSON instead of text.")
    var json = false

    @Flag(help: "Log each call (method, URL, status, duration, bytes) to standard error.")
    var verbose = false

    @Flag(help: "Answer GETs through an HTTP cache in memory, and print its counters at the end.")
    var cache = false

    @Option(help: "Keep the HTTP cache in this directory, across runs (implies --cache).")
    var cacheDirectory: String?

    /// Runs `body` with the services, starting the demo server first if no URL was given, and
    /// turns any error into a clear message and a failing exit code.
    func run(caching: Bool = false, _ body: (Session) async throws -> Void) async throws {
        let server: DemoServer? = baseURL == nil ? try await DemoServer.start() : nil
        guard let books = server?.baseURL ?? baseURL.flatMap(Self.url) else {
            throw ValidationError("--base-url must be an http or https URL such as http://localhost:8080")
        }
        guard let quotes = quotesURL.map(Self.url) ?? books.appendingPathComponent("quotable") else {
            throw ValidationError("--quotes-url must be an http or https URL such as https://api.quotable.io")
        }
        let output = Output(json: json)
        let monitors: [any CallMonitor] = verbose ? [Self.logging] : [RetryNotes(output: output)]
        let cache = try makeCache(caching || cache)
        let bookClient = URLSessionClient(baseURL: books, monitors: monitors, retryPolicy: .default, timeout: 30, cache: cache)
        let quoteClient = URLSessionClient(baseURL: quotes, monitors: monitors, timeout: 30)
        if server != nil, !json { output.note("Started the demo server at \(books)") }
        var failure: (any Error)?
        do {
            try await body(
                Session(
                    baseURL: books, client: bookClient, books: BookServiceClient(client: bookClient), quotes: QuoteServiceClient(client: quoteClient), output: output,
                    cache: cache))
        } catch {
            failure = error
        }
        if let cache, !json { output.note("HTTP cache: \(describe(cache.statistics))") }
        bookClient.invalidate()
        quoteClient.invalidate()
        await server?.stop()
        if let failure {
            if failure is ValidationError || failure is CleanExit { throw failure }
            output.error(Output.message(for: failure))
            throw ExitCode.failure
        }
    }

    /// The cache `--cache` or `--cache-directory` asks for, if any.
    private func makeCache(_ wanted: Bool) throws -> HTTPCache? {
        if let cacheDirectory { return HTTPCache(store: try DiskCacheStore(directory: URL(fileURLWithPath: cacheDirectory))) }
        return wanted ? HTTPCache() : nil
    }

    /// `--verbose`: every call logged through EndpointKitTelemetry, one line each, to stderr.
    private static var logging: any CallMonitor {
        var logger = Logger(label: "book-demo", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .debug
        return LoggingMonitor(logger: logger)
    }

    private static func url(_ string: String) -> URL? {
        guard let url = URL(string: string), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            return nil
        }
        return url
    }
}

/// What a command works with.
struct Session {
    /// The book API's address, and the EndpointKit client the services (and `openapi`'s
    /// generated client) call it with.
    let baseURL: URL
    let client: any Client
    let books: any BookService
    let quotes: any QuoteService
    let output: Output
    /// The books' HTTP cache, with `--cache`, `--cache-directory` or `poll`.
    let cache: HTTPCache?
}

/// A cache's counters in a line.
func describe(_ statistics: CacheStatistics) -> String {
    "\(statistics.requests) requests, \(statistics.networkRequests) sent to the server, \(statistics.hits) answered from the cache "
        + "(\(statistics.revalidated) revalidated with 304, \(statistics.staleServed) stale)"
}
