@_spi(Transport) @_spi(Locking) import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stream whose reader pulls each chunk through a function (as `AsyncHTTPClientClient`'s
/// streams do): the chunks in the order the function gives them, and none read once the
/// reading task is cancelled.
final class PulledResponseStreamTests: XCTestCase {
    private let head = ResponseHead(url: URL(string: "http://127.0.0.1:1/feed")!, statusCode: 200, version: "HTTP/1.1", fields: [])

    /// A stream of `chunks`, counting the reads its function is asked for.
    private func stream(of chunks: [String]) -> (ResponseStream, Locked<Int>) {
        let reads = Locked(0)
        let stream = ResponseStream(head: head) {
            let index = reads.withLock { count in
                defer { count += 1 }
                return count
            }
            return index < chunks.count ? Data(chunks[index].utf8) : nil
        }
        return (stream, reads)
    }

    func testChunksComeInTheOrderReadThenTheEnd() async throws {
        let (stream, reads) = stream(of: ["alpha", "beta", "gamma"])
        var received: [String] = []
        for try await chunk in stream { received.append(String(decoding: chunk, as: UTF8.self)) }
        XCTAssertEqual(received, ["alpha", "beta", "gamma"])
        XCTAssertEqual(reads.withLock { $0 }, 4, "three chunks and the end")
    }

    /// Cancelled before its first read, or between two reads: the next read throws
    /// `CancellationError` without asking the function (so nothing more is read from the
    /// connection), as a stream fed by the transport ends at its task's cancel. Many rounds,
    /// the cancel landing at each point.
    func testNoChunkIsReadOnceTheTaskIsCancelled() async throws {
        for round in 0..<200 {
            let readsBeforeCancel = round % 3
            let (stream, reads) = stream(of: ["a", "b", "c", "d"])
            let task = Task {
                var iterator = stream.makeAsyncIterator()
                for _ in 0..<readsBeforeCancel { _ = try await iterator.next() }
                withUnsafeCurrentTask { $0?.cancel() }
                return try await iterator.next()
            }
            do {
                let chunk = try await task.value
                XCTFail("round \(round): read \(chunk.map { String(decoding: $0, as: UTF8.self) } ?? "the end") after the cancel")
            } catch is CancellationError {
                XCTAssertEqual(reads.withLock { $0 }, readsBeforeCancel, "round \(round)")
            }
        }
    }
}
