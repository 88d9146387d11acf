@_spi(Transport) import EndpointKit
import Foundation

/// `bench lines MB`: how fast a streamed body is split into lines (`ResponseStream.lines`), from
/// memory, in chunks of 64 KiB of 20-byte lines (NDJSON, say); against splitting the same bytes
/// with `split(separator:)` and a `String` a line. Then how fast `ResponseStream.events` decodes
/// Server-Sent Events of the same size (`data: …` and a blank line).
enum LinesCost {
    /// Counts what one way of reading finds in `count` chunks like `chunk`.
    typealias Reading = @Sendable (_ chunk: Data, _ count: Int) async throws -> Int

    static func run(megabytes: Int) async throws {
        let line = Data("{\"n\":1234567890123}\n".utf8)
        let event = Data("data: {\"n\":12345678}\n\n".utf8)
        let chunkCount = megabytes << 20 / (64 << 10)
        print("\nA streamed body split into lines: \(chunkCount) chunks of 64 KiB, 20-byte lines (median of 3 runs)")
        let rows: [(String, Data, Reading)] = [
            ("ResponseStream.lines", line, { try await read($0, $1) { try await $0.lines.reduce(0) { n, _ in n + 1 } } }),
            ("split(separator:), a String a line", line, splitting),
            ("ResponseStream.events (20-byte events)", event, { try await read($0, $1) { try await $0.events.reduce(0) { n, _ in n + 1 } } }),
        ]
        for (name, unit, reading) in rows {
            var chunk = Data()
            while chunk.count + unit.count <= 64 << 10 { chunk.append(unit) }
            var seconds: [Double] = []
            for _ in 0..<3 {
                let start = ContinuousClock.now
                let found = try await reading(chunk, chunkCount)
                precondition(found == chunkCount * (chunk.count / unit.count))
                let elapsed = ContinuousClock.now - start
                seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            let rate = Double(chunkCount * chunk.count) / 1e6 / seconds.sorted()[1]
            print("  " + name.padding(toLength: 38, withPad: " ", startingAt: 0) + String(format: "%8.0f MB/s", rate))
        }
    }

    /// `count` chunks like `chunk`, as a stream that `counting` reads.
    private static func read(_ chunk: Data, _ count: Int, _ counting: (ResponseStream) async throws -> Int) async throws -> Int {
        guard let url = URL(string: "http://127.0.0.1/lines") else { return 0 }
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            for _ in 0..<count { continuation.yield(chunk) }
            continuation.finish()
        }
        let head = ResponseHead(url: url, statusCode: 200, version: "HTTP/1.1", fields: [])
        return try await counting(ResponseStream(head: head, chunks: chunks))
    }

    private static func splitting(_ chunk: Data, _ count: Int) async throws -> Int {
        var found = 0
        for _ in 0..<count {
            for line in chunk.split(separator: 0x0A) where !String(decoding: line, as: UTF8.self).isEmpty { found += 1 }
        }
        return found
    }
}
