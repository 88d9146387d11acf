import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP cache (RFC 9111, RFC 5861) through the client, against `/cache` resources whose
/// caching header fields each scenario chooses; time moves on a test clock.
extension ClientScenarios {
    var cachingScenarios: [(String, @Sendable (TestServer, FaultRoutes) async throws -> Void)] {
        [
            ("cache: fresh hit with both APIs", cacheFreshHit), ("cache: revalidation", cacheRevalidation),
            ("cache: what may be stored", cacheStorageRules), ("cache: Vary", cacheVary),
            ("cache: freshness from Expires, Age, Last-Modified", cacheFreshnessSources), ("cache: an Age out of range", cacheAgeOutOfRange),
            ("cache: no-cache and must-revalidate", cacheNoCache), ("cache: stale-while-revalidate", cacheStaleWhileRevalidate),
            ("cache: stale-if-error", cacheStaleIfError), ("cache: invalidation", cacheInvalidation),
            ("cache: policies", cachePolicies), ("cache: downloads and streams bypass", cacheBypass),
            ("cache: the caller's own conditional request", cacheCallerConditional), ("cache: HEAD freshens", cacheHeadFreshens),
            ("cache: random cancellation", cacheRandomCancellation), ("cache: streams that ask for it", cacheStreams),
        ]
    }

    /// Runs `body` with a client whose cache (in memory unless `store` is given) runs on the
    /// `/cache` route's clock.
    func withCache(
        _ server: TestServer, _ faults: FaultRoutes, store: (any HTTPCacheStore)? = nil,
        _ body: (any Client, HTTPCache, TestClock, CacheOutcomeLog) async throws -> Void
    ) async throws {
        let clock = faults.cacheRoute.clock
        let log = CacheOutcomeLog()
        let cache = HTTPCache(store: store ?? MemoryCacheStore(), clock: clock.now)
        try await with(server, Options(monitors: [log], timeout: 10, cache: cache)) { client in
            try await body(client, cache, clock, log)
        }
    }

    /// The counters of `cache`: requests, network requests, hits, revalidated, stale served.
    func counters(_ cache: HTTPCache) -> [Int] {
        let statistics = cache.statistics
        return [statistics.requests, statistics.networkRequests, statistics.hits, statistics.revalidated, statistics.staleServed]
    }

    func cacheFreshHit(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, cache, clock, log in
            let resource = CachedResource(["key": "fresh", "cc": "max-age=60"])
            let first = try await client.request(resource)
            clock.advance(30)
            let second = try await client.request(resource)
            let third: CacheRoute.Answer = try await withCheckedThrowingContinuation { continuation in
                client.request(resource) { continuation.resume(with: $0) }
            }
            XCTAssertEqual([second, third], [first, first], name)
            XCTAssertEqual(server.gets("fresh").count, 1, name)
            clock.advance(31)
            let fourth = try await client.request(resource)
            XCTAssertEqual(fourth.count, 2, "\(name): stale without a validator is fetched again")
            XCTAssertEqual(log.all, [.miss, .hit, .hit, .miss], name)
            XCTAssertEqual(counters(cache), [4, 2, 2, 0, 0], name)
            try await client.shutdown()
            do {
                _ = try await client.request(resource)
                XCTFail("\(name): a shut-down client answered from its cache")
            } catch EndpointKitError.clientInvalidated {}
        }
    }

    /// An `Age` that is not delta-seconds (`1e300`) is ignored; one past 2^31 reads as 2^31 (RFC
    /// 9111, 1.2.2): the stored answer is stale, and served again after a revalidation. Neither
    /// breaks the arithmetic of serving it (it once made an infinite age, and crashed).
    func cacheAgeOutOfRange(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, _, clock, log in
            let exponent = CachedResource(["key": "age-exponent", "cc": "max-age=60", "etag": "1", "age": "1e300"])
            let first = try await client.request(exponent)
            clock.advance(30)
            let second = try await client.request(exponent)
            XCTAssertEqual(second, first, name)
            let huge = CachedResource(["key": "age-huge", "cc": "max-age=60", "etag": "1", "age": "99999999999999999999"])
            let third = try await client.request(huge)
            let fourth = try await client.request(huge)
            XCTAssertEqual(fourth, third, name)
            XCTAssertEqual(log.all, [.miss, .hit, .miss, .revalidated], name)
        }
    }

    func cacheRevalidation(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, cache, clock, log in
            for (validator, key) in [("etag", "etag"), ("lm", "last-modified")] {
                let resource = CachedResource(["key": key, "cc": "max-age=60", validator: "1"])
                let first = try await client.request(resource)
                clock.advance(61)
                // The endpoint's default validation refuses a 304: it must see the stored 200.
                let second: CacheRoute.Answer = try await withCheckedThrowingContinuation { continuation in
                    client.request(resource) { continuation.resume(with: $0) }
                }
                XCTAssertEqual(second, first, name)
                let gets = server.gets(key)
                XCTAssertEqual(gets.count, 2, name)
                if validator == "etag" {
                    XCTAssertEqual(gets.last?.header("If-None-Match"), "\"v1\"", name)
                } else {
                    XCTAssertEqual(gets.last?.header("If-Modified-Since"), CacheRoute.format(Date(timeIntervalSince1970: 1_700_003_600)), name)
                }
                clock.advance(30)
                let value1 = try await client.request(resource)
                XCTAssertEqual(value1, first, name)
                XCTAssertEqual(server.gets(key).count, 2, "\(name): the 304 made the stored answer fresh again")
            }
            // The resource changes behind the cache: the revalidation brings (and stores) the new one.
            let resource = CachedResource(["key": "changed", "cc": "max-age=60", "etag": "1"])
            _ = try await client.request(resource)
            _ = try await client.request(CachedResourceHead(method: .post, query: ["key": "changed"]))
            clock.advance(61)
            let value2 = try await client.request(resource).version
            XCTAssertEqual(value2, 2, name)
            let value3 = try await client.request(resource).version
            XCTAssertEqual(value3, 2, name)
            XCTAssertEqual(server.gets("changed").count, 2, name)
            XCTAssertEqual(log.all, [.miss, .revalidated, .hit, .miss, .revalidated, .hit, .miss, nil, .miss, .hit], name)
            XCTAssertEqual(counters(cache), [9, 6, 5, 2, 0], name)
        }
    }

    func cacheStorageRules(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, _, _, log in
            let cases: [(String, [String: String], [String: String], Int)] = [
                ("no-store", ["cc": "no-store, max-age=60"], [:], 2),
                ("authorization", ["cc": "max-age=60"], ["Authorization": "Bearer a"], 2),
                ("authorization-public", ["cc": "public, max-age=60"], ["Authorization": "Bearer a"], 1),
                ("authorization-must-revalidate", ["cc": "max-age=60, must-revalidate"], ["Authorization": "Bearer a"], 1),
                ("authorization-s-maxage", ["cc": "s-maxage=60, max-age=60"], ["Authorization": "Bearer a"], 1),
                ("private", ["cc": "private, max-age=60"], [:], 1),
                ("vary-star", ["cc": "max-age=60", "vary": "*"], [:], 2),
                ("request-no-store", ["cc": "max-age=60"], ["Cache-Control": "no-store"], 2),
                ("no-freshness-no-validator", [:], [:], 2),
            ]
            for (key, query, headers, expected) in cases {
                var resource = CachedResource(query, headers: headers)
                resource = CachedResource(resource.query.merging(["key": key]) { $1 }, headers: headers)
                _ = try await client.request(resource)
                _ = try await client.request(resource)
                XCTAssertEqual(server.gets(key).count, expected, "\(name): \(key)")
            }
            XCTAssertEqual(log.all.suffix(4), [nil, nil, .miss, .miss], "\(name): a request with no-store bypasses the cache")
            // A stored 404 is served again, and still refused by the endpoint's validation.
            let gone = CachedResource(["key": "gone", "status": "404", "cc": "max-age=60"])
            for _ in 0..<2 {
                do {
                    _ = try await client.request(gone)
                    XCTFail("\(name): expected a 404")
                } catch let EndpointKitError.unacceptableStatus(failure) {
                    XCTAssertEqual(failure.statusCode, 404, name)
                }
            }
            XCTAssertEqual(server.gets("gone").count, 1, name)
        }
    }

    func cacheVary(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, _, _, log in
            let query = ["key": "vary", "cc": "max-age=60", "vary": "Accept-Language"]
            var languages: [String?] = []
            for language in ["fr", "en", "fr", "en", "fr"] {
                languages.append(try await client.request(CachedResource(query, headers: ["Accept-Language": language])).language)
            }
            XCTAssertEqual(languages, ["fr", "en", "fr", "en", "fr"], name)
            XCTAssertEqual(server.gets("vary").count, 2, name)
            XCTAssertEqual(log.all, [.miss, .miss, .hit, .hit, .hit], name)
        }
    }

    func cacheFreshnessSources(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, _, clock, _ in
            // Expires 100 s after Date, already 30 s old: fresh for 70 s.
            let expires = CachedResource(["key": "expires", "expiresIn": "100", "age": "30"])
            _ = try await client.request(expires)
            clock.advance(60)
            _ = try await client.request(expires)
            XCTAssertEqual(server.gets("expires").count, 1, name)
            clock.advance(15)
            _ = try await client.request(expires)
            XCTAssertEqual(server.gets("expires").count, 2, name)
            // max-age wins over Expires.
            let maxAge = CachedResource(["key": "max-age", "cc": "max-age=10", "expiresIn": "1000"])
            _ = try await client.request(maxAge)
            clock.advance(11)
            _ = try await client.request(maxAge)
            XCTAssertEqual(server.gets("max-age").count, 2, name)
            // Heuristic: modified 10 days ago, fresh for a tenth of that (a day).
            let heuristic = CachedResource(["key": "heuristic", "lmAgo": "864000"])
            _ = try await client.request(heuristic)
            clock.advance(23 * 3_600)
            _ = try await client.request(heuristic)
            XCTAssertEqual(server.gets("heuristic").count, 1, name)
            clock.advance(2 * 3_600)
            _ = try await client.request(heuristic)
            XCTAssertEqual(server.gets("heuristic").count, 2, name)
        }
    }

    func cacheNoCache(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, _, clock, log in
            let noCache = CachedResource(["key": "no-cache", "cc": "no-cache", "etag": "1"])
            for _ in 0..<3 { let value4 = try await client.request(noCache).count; XCTAssertEqual(value4, 1, name) }
            XCTAssertEqual(server.gets("no-cache").map { $0.header("If-None-Match") }, [nil, "\"v1\"", "\"v1\""], name)
            // The caller's own no-cache revalidates a fresh answer.
            let fresh = ["key": "request-no-cache", "cc": "max-age=60", "etag": "1"]
            _ = try await client.request(CachedResource(fresh))
            _ = try await client.request(CachedResource(fresh, headers: ["Cache-Control": "no-cache"]))
            XCTAssertEqual(server.gets("request-no-cache").last?.header("If-None-Match"), "\"v1\"", name)
            XCTAssertEqual(log.all, [.miss, .revalidated, .revalidated, .miss, .revalidated], name)
            // must-revalidate: never served stale, not even when the origin fails.
            let strict = CachedResource(["key": "must", "cc": "max-age=1, must-revalidate, stale-if-error=1000", "etag": "1", "failAfter": "1"])
            _ = try await client.request(strict)
            clock.advance(10)
            do {
                _ = try await client.request(strict)
                XCTFail("\(name): a must-revalidate answer was served stale")
            } catch let EndpointKitError.unacceptableStatus(failure) {
                XCTAssertEqual(failure.statusCode, 503, name)
            }
            do {
                _ = try await client.request(CachedResource(strict.query, cachePolicy: .onlyIfCached))
                XCTFail("\(name): a must-revalidate answer was served stale offline")
            } catch EndpointKitError.notCached {}
        }
    }

    func cacheStaleWhileRevalidate(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, cache, clock, log in
            let resource = CachedResource(["key": "swr", "cc": "max-age=1, stale-while-revalidate=100", "etag": "1", "delayMs": "50"])
            _ = try await client.request(resource)
            clock.advance(10)
            let answers = try await withThrowingTaskGroup(of: CacheRoute.Answer.self) { group in
                for _ in 0..<8 { group.addTask { try await client.request(resource) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(answers.map(\.count), Array(repeating: 1, count: 8), name)
            XCTAssertTrue(log.all.dropFirst().allSatisfy { $0 == .stale(.revalidatingInBackground) || $0 == .hit }, "\(name): \(log.all)")
            XCTAssertTrue(log.all.contains(.stale(.revalidatingInBackground)), name)
            let revalidated = await waitUntil(timeout: 5) { server.gets("swr").count == 2 }
            XCTAssertTrue(revalidated, name)
            try await Task.sleep(nanoseconds: 300_000_000)
            XCTAssertEqual(server.gets("swr").count, 2, "\(name): revalidated once, in the background")
            XCTAssertEqual(server.gets("swr").last?.header("If-None-Match"), "\"v1\"", name)
            _ = try await client.request(resource)
            XCTAssertEqual(log.last, .hit, "\(name): fresh again after the background revalidation")
            XCTAssertEqual(cache.statistics.networkRequests, 2, name)
        }
    }

    func cacheStaleIfError(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, cache, clock, log in
            for (key, failure) in [("stale-if-error", "503"), ("stale-if-error-reset", "reset")] {
                let resource = CachedResource(["key": key, "cc": "max-age=1, stale-if-error=100", "etag": "1", "failAfter": "1", "failWith": failure])
                let first = try await client.request(resource)
                clock.advance(10)
                let value5 = try await client.request(resource)
                XCTAssertEqual(value5, first, name)
                XCTAssertEqual(log.last, .stale(.originFailed(status: failure == "503" ? 503 : nil)), name)
            }
            clock.advance(200)
            do {
                _ = try await client.request(CachedResource(["key": "stale-if-error", "cc": "max-age=1, stale-if-error=100", "etag": "1", "failAfter": "1", "failWith": "503"]))
                XCTFail("\(name): served stale past the stale-if-error window")
            } catch let EndpointKitError.unacceptableStatus(failure) {
                XCTAssertEqual(failure.statusCode, 503, name)
            }
            XCTAssertEqual(cache.statistics.staleServed, 2, name)
        }
    }

    func cacheInvalidation(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, _, _, log in
            let resource = CachedResource(["key": "invalidate", "cc": "max-age=60"])
            let value6 = try await client.request(resource).version
            XCTAssertEqual(value6, 1, name)
            for method in [HTTPMethod.post, .put, .patch, .delete] {
                _ = try await client.request(CachedResourceHead(method: method, query: resource.query))
                let value7 = try await client.request(resource).version
                XCTAssertEqual(value7, server.gets("invalidate").count, "\(name): \(method)")
                XCTAssertEqual(log.last, .miss, "\(name): \(method)")
            }
            // A Location on the same origin is dropped too.
            let target = CachedResource(["key": "target", "cc": "max-age=60"])
            _ = try await client.request(target)
            let uri = server.gets("target").first?.uri ?? ""
            _ = try await client.request(CachedResourceHead(method: .post, query: ["key": "other", "location": uri]))
            _ = try await client.request(target)
            XCTAssertEqual(server.gets("target").count, 2, name)
            // A safe method drops nothing.
            _ = try await client.request(CachedResourceHead(method: .options, query: target.query))
            _ = try await client.request(target)
            XCTAssertEqual(server.gets("target").count, 2, name)
        }
    }

    func cachePolicies(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, _, clock, log in
            let query = ["key": "policy", "cc": "max-age=60", "etag": "1"]
            _ = try await client.request(CachedResource(query))
            _ = try await client.request(CachedResourceHead(method: .post, query: ["key": "policy"]))
            let value8 = try await client.request(CachedResource(query, cachePolicy: .reload)).version
            XCTAssertEqual(value8, 2, name)
            XCTAssertNil(server.gets("policy").last?.header("If-None-Match"), "\(name): a reload is not conditional")
            let value9 = try await client.request(CachedResource(query)).version
            XCTAssertEqual(value9, 2, "\(name): the reload's answer was stored")
            XCTAssertEqual(server.gets("policy").count, 2, name)
            clock.advance(600)
            for policy in [CachePolicy.onlyIfCached, .returnStaleElseLoad] {
                let value10 = try await client.request(CachedResource(query, cachePolicy: policy)).version
                XCTAssertEqual(value10, 2, name)
                XCTAssertEqual(log.last, .stale(.acceptedByCaller), name)
            }
            _ = try await client.request(CachedResource(query, headers: ["Cache-Control": "max-stale=1000"]))
            XCTAssertEqual(log.last, .stale(.acceptedByCaller), name)
            XCTAssertEqual(server.gets("policy").count, 2, name)
            do {
                _ = try await client.request(CachedResource(["key": "offline"], cachePolicy: .onlyIfCached))
                XCTFail("\(name): expected notCached")
            } catch EndpointKitError.notCached(let url) {
                XCTAssertEqual(url?.path, "/cache", name)
            }
            XCTAssertEqual(server.gets("offline").count, 0, name)
            _ = try await client.request(CachedResource(["key": "stale-else-load", "cc": "max-age=60"], cachePolicy: .returnStaleElseLoad))
            XCTAssertEqual(server.gets("stale-else-load").count, 1, name)
        }
    }

    func cacheBypass(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, cache, _, log in
            let query = ["key": "bypass", "cc": "max-age=60"]
            for _ in 0..<2 {
                let file = try await client.download(CachedDownload(query: query))
                XCTAssertEqual(try JSONDecoder().decode(CacheRoute.Answer.self, from: Data(contentsOf: file)).key, "bypass", name)
                try? FileManager.default.removeItem(at: file)
            }
            for _ in 0..<2 {
                for try await _ in try await client.stream(PathEndpoint(path: "cache", query: [.init(name: "key", value: "bypass")])) {}
            }
            XCTAssertEqual(server.gets("bypass").count, 4, name)
            XCTAssertEqual(log.all, [nil, nil, nil, nil], name)
            XCTAssertEqual(cache.statistics.requests, 0, name)
        }
    }

    /// A stream whose endpoint gives a cache policy (as the OpenAPI transport's operations do)
    /// goes through the cache: a fresh hit streams the stored body, a stale one is revalidated
    /// and its `304` streams the stored body, a write outdates it, and a body left unread is
    /// not stored.
    func cacheStreams(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, cache, clock, log in
            func read(_ resource: CachedResource) async throws -> CacheRoute.Answer {
                var body = Data()
                for try await chunk in try await client.stream(resource) { body.append(chunk) }
                return try JSONDecoder().decode(CacheRoute.Answer.self, from: body)
            }
            let fresh = CachedResource(["key": "stream", "cc": "max-age=60", "etag": "1"], cachePolicy: .useProtocolRules)
            let first = try await read(fresh)
            clock.advance(30)
            let hit = try await read(fresh)
            XCTAssertEqual(hit, first, name)
            XCTAssertEqual(server.gets("stream").count, 1, "\(name): a fresh stored answer streamed without the origin")
            clock.advance(31)
            let revalidated = try await read(fresh)
            XCTAssertEqual(revalidated, first, "\(name): the 304 streamed the stored body")
            XCTAssertEqual(server.gets("stream").last?.header("If-None-Match"), "\"v1\"", name)
            XCTAssertEqual(server.gets("stream").count, 2, name)
            XCTAssertEqual(counters(cache), [3, 2, 2, 1, 0], name)
            XCTAssertEqual(log.all, [.miss, .hit, .revalidated], "\(name): monitors see how the cache answered a stream")

            // A write through a stream outdates the stored answer.
            for try await _ in try await client.stream(CachedResource(fresh.query, method: .post, cachePolicy: .useProtocolRules)) {}
            let after = try await read(fresh)
            XCTAssertEqual(after.version, 2, name)
            XCTAssertEqual(server.gets("stream").count, 3, name)

            // A body left unread is not stored; without a policy, streams pass by the cache.
            let partial = CachedResource(["key": "partial", "cc": "max-age=60"], cachePolicy: .useProtocolRules)
            for try await _ in try await client.stream(partial) { break }
            _ = try await read(partial)
            _ = try await read(partial)
            XCTAssertEqual(server.gets("partial").count, 2, name)
            for try await _ in try await client.stream(CachedResource(["key": "partial", "cc": "max-age=60"])) {}
            XCTAssertEqual(server.gets("partial").count, 3, name)
        }
    }

    func cacheCallerConditional(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, _, clock, log in
            let query = ["key": "conditional", "cc": "max-age=60", "etag": "1"]
            _ = try await client.request(CachedResource(query))
            let value11 = try await client.request(CachedResourceHead(method: .get, query: query, headers: ["If-None-Match": "\"v1\""]))
            XCTAssertEqual(value11, 304, name)
            let value12 = try await client.request(CachedResourceHead(method: .get, query: query, headers: ["If-None-Match": "\"v0\""]))
            XCTAssertEqual(value12, 200, name)
            XCTAssertEqual(server.gets("conditional").count, 1, "\(name): a fresh answer decides the caller's condition")
            clock.advance(61)
            // Stale: the caller's condition goes to the origin as it is, and its 304 to the caller.
            let value13 = try await client.request(CachedResourceHead(method: .get, query: query, headers: ["If-None-Match": "\"v1\""]))
            XCTAssertEqual(value13, 304, name)
            XCTAssertEqual(server.gets("conditional").count, 2, name)
            XCTAssertEqual(log.all, [.miss, .hit, .hit, .revalidated], name)
            _ = try await client.request(CachedResource(query))
            XCTAssertEqual(log.last, .hit, "\(name): the origin's 304 refreshed the stored answer")
        }
    }

    func cacheHeadFreshens(_ server: TestServer, _ faults: FaultRoutes) async throws {
        try await withCache(server, faults) { client, _, clock, log in
            let query = ["key": "head", "cc": "max-age=60", "etag": "1"]
            _ = try await client.request(CachedResource(query))
            clock.advance(61)
            let value14 = try await client.request(CachedResourceHead(query: query))
            XCTAssertEqual(value14, 200, name)
            _ = try await client.request(CachedResource(query))
            XCTAssertEqual(server.gets("head").count, 1, name)
            XCTAssertEqual(log.all, [.miss, nil, .hit], name)
        }
    }

    /// 1,000 calls cancelled at random moments, through a memory store and a disk store, over
    /// resources that are hits, revalidations and misses: every call ends, and every stored
    /// answer is whole (the disk store's read back by a new store on the same directory).
    func cacheRandomCancellation(_ server: TestServer, _ faults: FaultRoutes) async throws {
        let directory = temporaryFile()
        defer { try? FileManager.default.removeItem(at: directory) }
        let iterations = Int(ProcessInfo.processInfo.environment["CACHE_CANCEL_ITERATIONS"] ?? "") ?? 1_000
        for store in [MemoryCacheStore() as any HTTPCacheStore, try DiskCacheStore(directory: directory)] {
            let keys = (0..<4).map { "cancel-\($0)" }
            let cancelled = Guarded(0)
            try await withCache(server, faults, store: store) { client, _, clock, _ in
                for iteration in 0..<iterations {
                    let key = keys[iteration % keys.count]
                    let query = ["key": key, "cc": "max-age=\(iteration % 3)", "etag": "1", "delayMs": iteration % 5 == 0 ? "5" : "0"]
                    let task = Task { try await client.request(CachedResource(query)) }
                    try await Task.sleep(nanoseconds: UInt64.random(in: 0...2_000_000))
                    task.cancel()
                    switch await task.result {
                    case .success(let answer): XCTAssertEqual(answer.key, key, name)
                    case .failure(is CancellationError): cancelled.withLock { $0 += 1 }
                    case .failure(let error): XCTFail("\(name): \(error)")
                    }
                    if iteration % 7 == 0 { clock.advance(1) }
                }
                // One whole call per resource, so that (however slow the machine, and so however
                // many calls the cancels caught) there are answers to check.
                for key in keys { _ = try await client.request(CachedResource(["key": key, "cc": "max-age=60", "etag": "1", "delayMs": "0"])) }
            }
            XCTAssertGreaterThan(cancelled.withLock { $0 }, 0, "\(name): no call was cancelled")
            let reopened: any HTTPCacheStore = store is DiskCacheStore ? try DiskCacheStore(directory: directory) : store
            let uris = Set(server.requests.filter { $0.queryItems["key"]?.hasPrefix("cancel-") == true }.map(\.uri))
            var whole = 0
            for uri in uris {
                for stored in await reopened.responses(for: "GET " + server.baseURL.absoluteString + uri) {
                    let answer = try JSONDecoder().decode(CacheRoute.Answer.self, from: stored.body)
                    XCTAssertTrue(uri.contains("key=\(answer.key)"), "\(name): \(uri) holds \(answer.key)")
                    whole += 1
                }
            }
            XCTAssertGreaterThan(whole, 0, "\(name): \(type(of: store)) kept no answer")
        }
    }
}

extension TestServer {
    /// The `GET`s of `/cache?key=<key>` the server received.
    func gets(_ key: String) -> [ReceivedRequest] {
        requests.filter { $0.path == "/cache" && $0.method == "GET" && $0.queryItems["key"] == key }
    }
}

/// A `/cache` resource downloaded to a file.
struct CachedDownload: DownloadEndpoint {
    typealias Content = URL
    let query: [String: String]

    func makeRequest() throws -> URLRequest {
        try CachedResource(query).makeRequest()
    }

    func content(from response: URLResponse?, fileURL: URL) throws -> URL { fileURL }
}
