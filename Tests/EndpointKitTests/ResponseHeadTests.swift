@_spi(Transport) @_spi(Locking) import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A head a transport hands over as fields: read as they came, built into a Foundation
/// response only when asked, and then the same one each time, from any number of tasks.
final class ResponseHeadTests: XCTestCase {
    private let url = URL(string: "http://127.0.0.1:1/books?page=2")!
    private let fields = [
        (name: "Content-Type", value: "application/json"), (name: "X-Tag", value: "a"),
        (name: "x-tag", value: "b"), (name: "Set-Cookie", value: "a=1"), (name: "Set-Cookie", value: "b=2"),
    ]

    func testFieldsAreReadAsTheyCameAndTheResponseJoinsRepeats() {
        let head = ResponseHead(url: url, statusCode: 203, version: "HTTP/1.1", fields: fields)
        var seen: [String] = []
        var fieldCount = 0
        head.forEachField(counting: { fieldCount = $0 }) { seen.append("\($0): \($1)") }
        XCTAssertEqual(seen, ["Content-Type: application/json", "X-Tag: a", "x-tag: b", "Set-Cookie: a=1", "Set-Cookie: b=2"])
        XCTAssertEqual(fieldCount, seen.count)
        XCTAssertEqual(head.statusCode, 203)
        let response = head.response
        XCTAssertEqual(response.statusCode, 203)
        XCTAssertEqual(response.url, url)
        XCTAssertEqual(response.value(forHTTPHeaderField: "set-cookie"), "a=1, b=2")
        XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(response.mimeType, "application/json")
        XCTAssertTrue(head.response === response, "built once")
    }

    func testAFoundationHeadGivesItsOwnResponseAndItsFields() throws {
        let response = try XCTUnwrap(
            HTTPURLResponse(url: url, statusCode: 404, httpVersion: "HTTP/1.1", headerFields: ["X-Tag": "a, b"]))
        let head = ResponseHead(response)
        XCTAssertTrue(head.response === response)
        XCTAssertEqual(head.statusCode, 404)
        var seen: [String] = []
        var fieldCount = 0
        head.forEachField(counting: { fieldCount = $0 }) { seen.append("\($0.lowercased()): \($1)") }
        XCTAssertEqual(seen, ["x-tag: a, b"])
        XCTAssertEqual(fieldCount, 1)
    }

    func testTasksAskingAtOnceGetOneResponse() async {
        for _ in 0..<200 {
            let head = ResponseHead(url: url, statusCode: 200, version: "HTTP/1.1", fields: fields)
            let built = await withTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<8 { group.addTask { ObjectIdentifier(head.response) } }
                return await Set(group.reduce(into: []) { $0.append($1) })
            }
            XCTAssertEqual(built.count, 1)
        }
    }

    func testABuiltHeadIsBuiltOnceAndOnlyWhenAsked() {
        let builds = Locked(0)
        let head = ResponseHead(statusCode: 201) { [url] in
            builds.withLock { $0 += 1 }
            return HTTPURLResponse(url: url, statusCode: 201, httpVersion: "HTTP/1.1", headerFields: ["X-Tag": "a"])!
        }
        XCTAssertEqual(head.statusCode, 201)
        XCTAssertEqual(builds.withLock { $0 }, 0, "the status needs no response")
        XCTAssertTrue(head.response === head.response)
        var seen: [String] = []
        head.forEachField { seen.append("\($0.lowercased()): \($1)") }
        XCTAssertEqual(seen, ["x-tag: a"], "fields read from the response built")
        XCTAssertEqual(builds.withLock { $0 }, 1)
    }
}
