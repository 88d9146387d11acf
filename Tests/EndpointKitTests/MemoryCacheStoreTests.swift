import EndpointKit
import Foundation
import XCTest

final class MemoryCacheStoreTests: XCTestCase {
    func testEvictsTheLeastRecentlyUsedWithinItsCapacity() async {
        let answers = (0..<4).map { Self.answer($0, size: 1_000) }
        let store = MemoryCacheStore(capacity: answers[0].size * 3)
        for answer in answers.prefix(3) { await store.store(answer, for: answer.url.absoluteString) }
        _ = await store.responses(for: answers[0].url.absoluteString)
        await store.store(answers[3], for: answers[3].url.absoluteString)
        let kept = await [0, 1, 2, 3].asyncMap { await store.responses(for: answers[$0].url.absoluteString).count }
        XCTAssertEqual(kept, [1, 0, 1, 1])
        XCTAssertEqual(store.count, 3)
        XCTAssertEqual(store.size, answers[0].size * 3)
    }

    func testAnAnswerLargerThanTheCapacityIsNotStored() async {
        let store = MemoryCacheStore(capacity: 10_000)
        let small = Self.answer(1, size: 100)
        await store.store(small, for: "GET /a")
        await store.store(Self.answer(2, size: 20_000), for: "GET /a")
        let found = await store.responses(for: "GET /a")
        XCTAssertEqual(found, [], "the older answer it would have replaced is dropped too")
        XCTAssertEqual(store.size, 0)
    }

    func testVariantsAndRemoval() async {
        let store = MemoryCacheStore()
        let french = Self.answer(1, size: 10, varying: ["accept-language": "fr"])
        let english = Self.answer(2, size: 10, varying: ["accept-language": "en"])
        for answer in [french, english, Self.answer(3, size: 10, varying: ["accept-language": "fr"])] {
            await store.store(answer, for: "GET /a")
        }
        XCTAssertEqual(store.count, 2)
        await store.store(Self.answer(4, size: 10), for: "GET /b")
        await store.removeResponses(for: "GET /a")
        XCTAssertEqual(store.count, 1)
        await store.removeAll()
        XCTAssertEqual(store.count, 0)
        XCTAssertEqual(store.size, 0)
    }

    func testConcurrentUseKeepsItsAccounts() async {
        let store = MemoryCacheStore(capacity: 50_000)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<1_000 {
                group.addTask {
                    let key = "GET /\(index % 40)"
                    if index % 3 == 0 { await store.removeResponses(for: key) }
                    await store.store(Self.answer(index, size: 100 + index % 900), for: key)
                    _ = await store.responses(for: key)
                }
            }
        }
        var total = 0
        for index in 0..<40 { total += await store.responses(for: "GET /\(index)").reduce(0) { $0 + $1.size } }
        XCTAssertEqual(store.size, total)
        XCTAssertLessThanOrEqual(store.size, 50_000)
    }

    private static func answer(_ seed: Int, size: Int, varying: [String: String] = [:]) -> CachedResponse {
        CachedResponse(
            url: URL(string: "http://example.test/\(seed)")!, statusCode: 200, headers: ["ETag": "\"\(seed)\""],
            body: Data(count: size), requestDate: Date(), responseDate: Date(), varying: varying)
    }
}
