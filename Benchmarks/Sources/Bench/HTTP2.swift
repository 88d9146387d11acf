import AsyncHTTPClient
import EndpointKit
import EndpointKitAsyncHTTPClient
import BenchSupport
import Foundation

/// `bench http2 H2URL H1URL`: the same small GETs over HTTP/2 (one connection, many calls in
/// flight on it) and over HTTP/1.1 (a connection per call in flight), with both clients.
/// `Scripts/bench-nginx.sh` serves both over TLS (8443 offers h2, 8444 HTTP/1.1 only); its
/// authority must be in the system's trust store for `URLSessionClient` on Linux
/// (`TRUST=1 Scripts/bench-nginx.sh`), which AsyncHTTPClient reads too.
enum HTTP2 {
    static func run(http2: URL, http1: URL, seconds: Double) async throws {
        print("\nHTTP/2 against HTTP/1.1 over TLS: small GETs (ms), \(seconds) s a cell, median of 3 alternating rounds")
        print("  client                       in flight   h2 req/s   h1 req/s   h2/h1    h2 p99   h1 p99")
        let clients: [(String, (URL) -> any Client)] = [
            ("URLSessionClient", { URLSessionClient(baseURL: $0) }),
            ("AsyncHTTPClientClient", { AsyncHTTPClientClient(baseURL: $0) }),
        ]
        for (name, make) in clients {
            let over2 = make(http2)
            let over1 = make(http1)
            for concurrency in [1, 16, 64, 256] {
                var twos: [Latency.Cell] = []
                var ones: [Latency.Cell] = []
                for round in 0..<3 {
                    for (client, index) in [(over2, 0), (over1, 1)] {
                        let contender = Latency.Contender(name: name) { path in
                            let data = try await client.request(RawBytes(path: path))
                            precondition(!data.isEmpty)
                        }
                        if round == 0 { _ = try await Latency.measure(contender, path: "json", concurrency: concurrency, seconds: 0.2) }
                        let cell = try await Latency.measure(contender, path: "json", concurrency: concurrency, seconds: seconds / 3)
                        if index == 0 { twos.append(cell) } else { ones.append(cell) }
                    }
                }
                let two = twos.sorted { $0.requestsPerSecond < $1.requestsPerSecond }[1]
                let one = ones.sorted { $0.requestsPerSecond < $1.requestsPerSecond }[1]
                print(
                    "  " + name.padding(toLength: 28, withPad: " ", startingAt: 0)
                        + String(
                            format: "%9d %10.0f %10.0f %7.2f %9.2f %8.2f", concurrency, two.requestsPerSecond, one.requestsPerSecond,
                            two.requestsPerSecond / max(one.requestsPerSecond, 1), two.p99, one.p99))
            }
            try await over2.shutdown()
            try await over1.shutdown()
        }
    }
}
