@_spi(Transport) import EndpointKit
import Foundation

/// `bench lines MB`: how fast a streamed body is split into lines (`ResponseStream.lines`), from
/// memory, in chunks of 64 KiB of 20-byte lines (NDJSON, say); against splitting the same bytes
/// with `split(separator:)` and a `String` a line. Then how fast `ResponseStream.events` decodes
/// Server-Sent Events of the same size (`data: …` and a blank line).
enum LinesCost {
    static func run(megabytes: Int) async throws {
        let line = Data("{\"n\":1234567890123}\n".utf8)
        var chunk = Data()
        while chunk.count + line.count <= 64 << 10 { chunk.append(line) }
        let count = megabytes << 20 / chunk.count
        guard let url = URL(string: "http://127.0.0.1/lines") else { return }
        let head = ResponseHead(url: url, statusCode: 200, version: "HTTP/1.1", fields: [])
        print("\nA streamed body split into lines: \(count) chunks of 64 KiB, 20-byte lines (median of 3 runs)")
        var rows: [(String, Double)] = []
        for (name, split) in [("ResponseStream.lines", lines), ("split(separator:), a String a line", splitting)] {
            var seconds: [Double] = []
            for _ in 0..<3 {
                let start = ContinuousClock.now
                let found = try await split(head, chunk, count)
                precondition(found == count * (chunk.count / line.count))
                let elapsed = ContinuousClock.now - start
                seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            rows.append((name, Double(count * chunk.count) / 1e6 / seconds.sorted()[1]))
        }
        var eventChunk = Data()
        let event = Data("data: {\"n\":12345678}\n\n".utf8)
        while eventChunk.count + event.count <= 64 << 10 { eventChunk.append(event) }
        var eventSeconds: [Double] = []
        for _ in 0..<3 {
            let start = ContinuousClock.now
            let found = try await events(head, eventChunk, count)
            precondition(found == count * (eventChunk.count / event.count))
            let elapsed = ContinuousClock.now - start
            eventSeconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        rows.append(("ResponseStream.events (20-byte events)", Double(count * eventChunk.count) / 1e6 / eventSeconds.sorted()[1]))
        for (name, rate) in rows {
            print("  " + name.padding(toLength: 38, withPad: " ", startingAt: 0) + String(format: "%8.0f MB/s", rate))
        }
    }

    private static func events(_ head: ResponseHead, _ chunk: Data, _ count: Int) async throws -> Int {
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            for _ in 0..<count { continuation.yield(chunk) }
            continuation.finish()
        }
        var found = 0
        for try await _ in ResponseStream(head: head, chunks: chunks).events { found += 1 }
        return found
    }

    private static func lines(_ head: ResponseHead, _ chunk: Data, _ count: Int) async throws -> Int {
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            for _ in 0..<count { continuation.yield(chunk) }
            continuation.finish()
        }
        var found = 0
        for try await _ in ResponseStream(head: head, chunks: chunks).lines { found += 1 }
        return found
    }

    private static func splitting(_ head: ResponseHead, _ chunk: Data, _ count: Int) async throws -> Int {
        var found = 0
        for _ in 0..<count {
            for line in chunk.split(separator: 0x0A) where !String(decoding: line, as: UTF8.self).isEmpty { found += 1 }
        }
        return found
    }
}
