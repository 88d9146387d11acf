@_spi(Transport) import EndpointKit
import Foundation
import XCTest

/// Lines split from chunks cut anywhere: line ends across chunks, empty chunks and lines,
/// characters split between chunks.
final class ResponseLinesTests: XCTestCase {
    private func lines(_ chunks: [String]) async throws -> [String] {
        try await lines(chunks.map { Data($0.utf8) })
    }

    private func lines(_ chunks: [Data]) async throws -> [String] {
        let body = AsyncThrowingStream<Data, any Error> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1/lines"))
        let head = ResponseHead(url: url, statusCode: 200, version: "HTTP/1.1", fields: [])
        var lines: [String] = []
        for try await line in ResponseStream(head: head, chunks: body).lines { lines.append(line) }
        return lines
    }

    func testEveryLineEndInAnyCut() async throws {
        let body = "one\ntwo\r\nthree\rfour\n\nsix\r\r\neight"
        let expected = ["one", "two", "three", "four", "", "six", "", "eight"]
        let bytes = Array(body.utf8)
        // Every way of cutting the body in three, empty pieces included.
        for first in 0...bytes.count {
            for second in first...bytes.count {
                let chunks = [bytes[..<first], bytes[first..<second], bytes[second...]].map { Data($0) }
                let found = try await lines(chunks)
                XCTAssertEqual(found, expected, "cut at \(first), \(second)")
            }
        }
    }

    func testACRLFWithAnEmptyChunkBetweenIsOneLineEnd() async throws {
        let found = try await lines(["a\r", "", "\nb"])
        XCTAssertEqual(found, ["a", "b"])
    }

    func testACharacterSplitBetweenChunksArrivesWhole() async throws {
        let bytes = Array("Dün\nÉté".utf8)
        for cut in 0...bytes.count {
            let found = try await lines([Data(bytes[..<cut]), Data(bytes[cut...])])
            XCTAssertEqual(found, ["Dün", "Été"], "cut at \(cut)")
        }
    }

    func testTheEndsOfABody() async throws {
        let empty = try await lines([String]())
        XCTAssertEqual(empty, [])
        let endsWithLineEnd = try await lines(["a\n"])
        XCTAssertEqual(endsWithLineEnd, ["a"])
        let endsWithCR = try await lines(["a\r"])
        XCTAssertEqual(endsWithCR, ["a"])
        let onlyLineEnds = try await lines(["\n", "\r\n", "\r"])
        XCTAssertEqual(onlyLineEnds, ["", "", ""])
    }
}
