import EndpointKit
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class DiskCacheStoreTests: XCTestCase {
    private var directory: URL!

    override func setUp() {
        directory = temporaryFile()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    func testAnswersOutliveTheStore() async throws {
        let store = try DiskCacheStore(directory: directory)
        let answers = (0..<3).map { Self.answer(seed: $0, size: 1_000 * ($0 + 1)) }
        for answer in answers { await store.store(answer, for: key(answer)) }
        let reopened = try DiskCacheStore(directory: directory)
        XCTAssertEqual(reopened.count, 3)
        XCTAssertEqual(reopened.size, store.size)
        for answer in answers {
            let found = await reopened.responses(for: key(answer))
            XCTAssertEqual(found, [answer])
        }
    }

    func testVariantsAreEntriesOfTheirOwnAndReplaceOnlyThemselves() async throws {
        let store = try DiskCacheStore(directory: directory)
        let french = Self.answer(seed: 1, size: 10, varying: ["accept-language": "fr"])
        let english = Self.answer(seed: 2, size: 10, varying: ["accept-language": "en"])
        let newerFrench = Self.answer(seed: 3, size: 20, varying: ["accept-language": "fr"])
        for answer in [french, english, newerFrench] { await store.store(answer, for: "GET /same") }
        let found = await store.responses(for: "GET /same").sorted { $0.body.count < $1.body.count }
        XCTAssertEqual(found, [english, newerFrench])
        await store.removeResponses(for: "GET /same")
        let none = await store.responses(for: "GET /same")
        XCTAssertEqual(none, [])
        XCTAssertEqual(try entryFiles().count, 0)
    }

    func testEvictsTheLeastRecentlyUsedWithinItsCapacity() async throws {
        let probe = try DiskCacheStore(directory: temporaryFile())
        await probe.store(Self.answer(seed: 0, size: 10_000), for: key(Self.answer(seed: 0, size: 0)))
        let size = probe.size
        try? FileManager.default.removeItem(at: probe.directory)
        let store = try DiskCacheStore(directory: directory, capacity: size * 3)
        let answers = (0..<4).map { Self.answer(seed: $0, size: 10_000) }
        for answer in answers.prefix(3) { await store.store(answer, for: key(answer)) }
        _ = await store.responses(for: key(answers[0]))
        await store.store(answers[3], for: key(answers[3]))
        let kept = await [0, 1, 2, 3].asyncMap { await store.responses(for: key(answers[$0])).count }
        XCTAssertEqual(kept, [1, 0, 1, 1])
        XCTAssertEqual(try entryFiles().count, 3)
        XCTAssertLessThanOrEqual(store.size, size * 3)
        // One larger than the whole capacity is not stored, and drops the older answer it replaces.
        await store.store(Self.answer(seed: 0, size: size * 4), for: key(answers[0]))
        let replaced = await store.responses(for: key(answers[0]))
        XCTAssertEqual(replaced, [])
        XCTAssertEqual(try entryFiles().count, 2)
    }

    func testADamagedOrTornFileIsDroppedNotServed() async throws {
        let store = try DiskCacheStore(directory: directory)
        let whole = Self.answer(seed: 1, size: 5_000)
        await store.store(whole, for: key(whole))
        let file = try XCTUnwrap(entryFiles().first)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 10] ^= 0xff
        try bytes.write(to: file)
        let found = await store.responses(for: key(whole))
        XCTAssertEqual(found, [], "a flipped byte fails the checksum")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))

        await store.store(whole, for: key(whole))
        let again = try XCTUnwrap(entryFiles().first)
        try Data(try Data(contentsOf: again).prefix(3_000)).write(to: again)
        try Data("half a write".utf8).write(to: directory.appendingPathComponent("leftover.tmp"))
        try Data("not ours".utf8).write(to: directory.appendingPathComponent("README"))
        let reopened = try DiskCacheStore(directory: directory)
        XCTAssertEqual(reopened.count, 0, "a truncated file is not taken in")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["README"])
    }

    func testManyConcurrentWritersAndReadersOfOneKey() async throws {
        let store = try DiskCacheStore(directory: directory, capacity: 1 << 20)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let answer = Self.answer(seed: index, size: 1_000 + index * 37)
                    if index % 2 == 0 {
                        await store.store(answer, for: "GET /one")
                    } else {
                        for found in await store.responses(for: "GET /one") { XCTAssertTrue(Self.isWhole(found)) }
                    }
                }
            }
        }
        let found = await store.responses(for: "GET /one")
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.allSatisfy(Self.isWhole))
        XCTAssertEqual(try entryFiles().count, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).count, 1, "no temporary file is left")
    }

    /// A child process writes large answers (2 to 8 MiB) without pause and is killed (SIGKILL)
    /// as soon as a write shows, five times: the store reopened serves only whole answers, and
    /// the kills did land in the middle of writes (temporary files were left).
    func testAProcessKilledMidWriteLeavesNoTornAnswer() async throws {
        #if os(Linux)
            var interrupted = 0
            var whole = 0
            for _ in 0..<5 {
                let child = Process()
                child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
                child.arguments = ["EndpointKitTests.DiskCacheStoreTests/testChildWritesUntilKilled"]
                child.environment = ProcessInfo.processInfo.environment.merging(["CACHE_WRITER_DIRECTORY": directory.path, "CACHE_WRITER_PARENT": String(getpid())]) { $1 }
                child.standardOutput = FileHandle.nullDevice
                child.standardError = FileHandle.nullDevice
                try child.run()
                // Once it has written two answers, kill it as soon as a write shows.
                let path = directory.path
                let wrote = await waitUntil(timeout: 60) {
                    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".entry") }.count >= 2
                }
                XCTAssertTrue(wrote, "the child wrote nothing")
                let writing = await waitUntil(timeout: 60, every: 100_000) {
                    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).contains { $0.hasSuffix(".tmp") }
                }
                XCTAssertTrue(writing, "the child stopped writing")
                kill(child.processIdentifier, SIGKILL)
                child.waitUntilExit()
                let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                if names.contains(where: { $0.hasSuffix(".tmp") }) { interrupted += 1 }
                let store = try DiskCacheStore(directory: directory)
                for index in 0..<Self.childKeys {
                    for found in await store.responses(for: "GET /child/\(index)") {
                        XCTAssertTrue(Self.isWhole(found), "a torn or mismatched answer was served")
                        whole += 1
                    }
                }
                XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: directory.path).contains { $0.hasSuffix(".tmp") })
            }
            print("DiskCacheStore kill test: \(interrupted) of 5 kills landed mid-write; \(whole) whole answers read back")
            XCTAssertGreaterThan(interrupted, 0, "no kill landed in the middle of a write")
            XCTAssertGreaterThan(whole, 0)
        #else
            throw XCTSkip("re-runs the test binary, which is an executable on Linux only")
        #endif
    }

    /// The child of the test above: runs only when started by it.
    func testChildWritesUntilKilled() async throws {
        guard let path = ProcessInfo.processInfo.environment["CACHE_WRITER_DIRECTORY"] else {
            throw XCTSkip("the child process of testAProcessKilledMidWriteLeavesNoTornAnswer")
        }
        let store = try DiskCacheStore(directory: URL(fileURLWithPath: path), capacity: 1 << 30)
        let answers = (1...4).map { Self.answer(seed: $0, size: $0 << 21) }
        var index = 0
        // Until killed, or until the test that started it is gone (a run stopped midway), so
        // that it never goes on writing alone.
        guard let parent = pid_t(ProcessInfo.processInfo.environment["CACHE_WRITER_PARENT"] ?? "") else { return }
        while kill(parent, 0) == 0 {
            await store.store(answers[index % answers.count], for: "GET /child/\(index % Self.childKeys)")
            index += 1
        }
    }

    private static let childKeys = 8

    private func entryFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil).filter { $0.pathExtension == "entry" }
    }

    private func key(_ answer: CachedResponse) -> String { "GET " + answer.url.absoluteString }

    /// An answer whose body is the transfer pattern from byte `seed`, told in its `X-Seed` field.
    private static func answer(seed: Int, size: Int, varying: [String: String] = [:]) -> CachedResponse {
        CachedResponse(
            url: URL(string: "http://example.test/\(seed)")!, statusCode: 200,
            headers: ["X-Seed": String(seed), "X-Size": String(size), "Cache-Control": "max-age=60"],
            body: TransferRoutes.bytes(Int64(seed)..<Int64(seed + size)),
            requestDate: Date(timeIntervalSince1970: 1_700_000_000), responseDate: Date(timeIntervalSince1970: 1_700_000_001),
            varying: varying)
    }

    /// Whether `answer`'s body is the pattern its fields name, compared whole (byte by byte,
    /// the kill test's 2 to 8 MiB answers took most of its time).
    private static func isWhole(_ answer: CachedResponse) -> Bool {
        guard let seed = answer.header("X-Seed").flatMap(Int.init), let size = answer.header("X-Size").flatMap(Int.init),
            answer.body.count == size
        else { return false }
        return answer.body == TransferRoutes.bytes(Int64(seed)..<Int64(seed + size))
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var results: [T] = []
        for element in self { results.append(await transform(element)) }
        return results
    }
}
