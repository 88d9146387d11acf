@_spi(Transport) @testable import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A body kept in memory as its chunks arrive: the first kept as it came, the rest appended, the
/// client's limit enforced, and indices that start at 0 whatever the chunks were.
final class IncomingBodyTests: XCTestCase {
    private let url = URL(string: "http://127.0.0.1:1/books")!

    private func body(limit: Int = 100) throws -> IncomingBody {
        let head = try XCTUnwrap(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:]))
        return try IncomingBody(head: head, expected: nil, file: nil, bodyLimit: limit, url: url)
    }

    func testOneChunkIsTheBody() throws {
        var incoming = try body()
        let chunk = Data("{\"id\":1,\"title\":\"Dune\"}".utf8)
        XCTAssertNil(try incoming.take(chunk))
        XCTAssertEqual(incoming.body, chunk)
        XCTAssertEqual(incoming.received, Int64(chunk.count))
    }

    func testChunksAreJoinedInOrderWithoutChangingTheFirst() throws {
        var incoming = try body()
        var first = Data("abc".utf8)
        XCTAssertNil(try incoming.take(first))
        XCTAssertNil(try incoming.take(Data("def".utf8)))
        XCTAssertNil(try incoming.take(Data("ghi".utf8)))
        first.append(contentsOf: Data("xyz".utf8))
        XCTAssertEqual(String(decoding: incoming.body, as: UTF8.self), "abcdefghi")
        XCTAssertEqual(String(decoding: first, as: UTF8.self), "abcxyz", "the caller's chunk is its own")
        XCTAssertEqual(incoming.received, 9)
    }

    func testASliceIsKeptWithIndicesFromZero() throws {
        var incoming = try body()
        let whole = Data("0123456789".utf8)
        let slice = whole[4..<8]
        XCTAssertEqual(slice.startIndex, 4)
        XCTAssertNil(try incoming.take(slice))
        XCTAssertEqual(incoming.body.startIndex, 0)
        XCTAssertEqual(incoming.body[0], UInt8(ascii: "4"))
        XCTAssertEqual(String(decoding: incoming.body, as: UTF8.self), "4567")
    }

    func testTheLimitCountsEveryChunk() throws {
        var incoming = try body(limit: 8)
        XCTAssertNil(try incoming.take(Data(count: 5)))
        XCTAssertThrowsError(try incoming.take(Data(count: 4))) { error in
            guard case EndpointKitError.bodyTooLarge(_, let limit) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(limit, 8)
        }
        XCTAssertEqual(incoming.body.count, 5, "nothing past the limit is kept")
    }

    /// A resumed download whose 206 names no total, with a `Content-Length` near `Int64.max`:
    /// the kept bytes and that length cannot be added, so the body has no known total (it was
    /// an overflow, and a crash).
    func testAResumedLengthTooLargeToCountIsNoTotal() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("EndpointKit-\(UUID().uuidString).bin")
        let record = file.appendingPathExtension("resume")
        try Data("kept".utf8).write(to: file)
        try Data("\"v1\"".utf8).write(to: record)
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: record)
        }
        var request = URLRequest(url: url)
        let download = DownloadFile(resumableURL: file, request: &request)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Range"), "bytes=4-")
        let head = try XCTUnwrap(
            HTTPURLResponse(url: url, statusCode: 206, httpVersion: "HTTP/1.1", headerFields: ["Content-Range": "bytes 4-9/*"]))
        let incoming = try IncomingBody(head: head, expected: .max, file: download, bodyLimit: 100, url: url)
        XCTAssertNil(incoming.total)
        XCTAssertEqual(incoming.received, 4, "the kept bytes count")
        try incoming.handle?.close()
    }
}
