import AsyncHTTPClient
import Foundation
import NIOPosix

extension Latency {
    /// The `HTTPClient` of hammer and paired runs, which the raw rows and
    /// AsyncHTTPClientClient share. Set by the environment:
    /// - `BENCH_CONNECTIONS`: AsyncHTTPClient's connections per host (64 by default here);
    /// - `BENCH_TRACING=off`: no AsyncHTTPClient request spans, as in the HTTPClient that
    ///   AsyncHTTPClientClient makes for itself (by default every row pays for no-op spans);
    /// - `BENCH_LOOPS=N`: an event-loop group of its own with N threads, kept until the process
    ///   ends (the shared singleton by default).
    static func hammerHTTPClient() -> HTTPClient {
        let environment = ProcessInfo.processInfo.environment
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit =
            environment["BENCH_CONNECTIONS"].flatMap(Int.init) ?? 64
        if environment["BENCH_TRACING"] == "off" { configuration.tracing.tracer = nil }
        guard let loops = environment["BENCH_LOOPS"].flatMap(Int.init) else {
            return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: loops)
        return HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
    }
}
