@testable import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RFC 9111's arithmetic and parsing, apart from any server.
final class HTTPCacheRulesTests: XCTestCase {
    private let date = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT

    func testReadsTheThreeHTTPDateForms() {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), date)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), date)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), date)
        XCTAssertEqual(HTTPDate.parse("Thu, 29 Feb 2024 23:59:59 GMT"), Date(timeIntervalSince1970: 1_709_251_199))
        for invalid in ["", "0", "-1", "tomorrow", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT"] {
            XCTAssertNil(HTTPDate.parse(invalid), invalid)
        }
    }

    func testReadsCacheControlDirectives() {
        let control = CacheControl(#"public, max-age="60", no-cache="Set-Cookie, Age", stale-if-error=5, Max-Stale, x-ext=1"#)
        XCTAssertTrue(control.isPublic)
        XCTAssertTrue(control.noCache)
        XCTAssertEqual(control.maxAge, 60)
        XCTAssertEqual(control.staleIfError, 5)
        XCTAssertEqual(control.maxStale, .infinity)
        XCTAssertEqual(CacheControl("max-age=soon").maxAge, 0, "an invalid max-age is stale")
        XCTAssertEqual(CacheControl("max-age=99999999999999").maxAge, 2_147_483_648)
        XCTAssertTrue(CacheControl(nil, pragma: "no-cache").noCache, "Pragma without Cache-Control")
        XCTAssertFalse(CacheControl("max-age=5", pragma: "no-cache").noCache, "Cache-Control wins over Pragma")
    }

    func testFreshnessLifetime() {
        XCTAssertEqual(answer(["Cache-Control": "max-age=10, s-maxage=99", "Expires": "Sun, 06 Nov 1994 09:49:37 GMT"]).lifetime, 10)
        XCTAssertEqual(answer(["Expires": "Sun, 06 Nov 1994 09:49:37 GMT"]).lifetime, 3_600)
        XCTAssertEqual(answer(["Expires": "0"]).lifetime, 0, "an invalid Expires means already expired")
        XCTAssertEqual(answer(["Last-Modified": "Thu, 27 Oct 1994 08:49:37 GMT"]).lifetime, 86_400, "a tenth of the 10 days since")
        XCTAssertEqual(answer(["Last-Modified": "Sun, 06 Nov 1904 08:49:37 GMT"]).lifetime, 7 * 86_400, "at most a week")
        XCTAssertEqual(answer(["Last-Modified": "Thu, 27 Oct 1994 08:49:37 GMT"], status: 302).lifetime, 0, "302 is not cacheable by default")
        XCTAssertEqual(answer(["Last-Modified": "Thu, 27 Oct 1994 08:49:37 GMT", "Cache-Control": "public"], status: 302).lifetime, 86_400)
    }

    func testAgeCountsTheAgeFieldTheTripAndTheTimeSinceReceived() {
        // Date says it left the origin 5 s before it arrived; Age says 30 s; the trip took 2 s.
        let stored = CachedResponse(
            url: URL(string: "http://example.test")!, statusCode: 200,
            headers: ["Date": "Sun, 06 Nov 1994 08:49:37 GMT", "Age": "30"], body: Data(),
            requestDate: date.addingTimeInterval(3), responseDate: date.addingTimeInterval(5), varying: [:])
        XCTAssertEqual(stored.age(at: date.addingTimeInterval(5)), 32)
        XCTAssertEqual(stored.age(at: date.addingTimeInterval(105)), 132)
    }

    func testDecisions() {
        let now = date.addingTimeInterval(100)
        let fresh = answer(["Cache-Control": "max-age=600", "ETag": "\"a\""])
        let stale = answer(["Cache-Control": "max-age=10, stale-while-revalidate=200", "ETag": "\"a\""])
        let strict = answer(["Cache-Control": "max-age=10, must-revalidate"])
        XCTAssertEqual(kind(HTTPCache.decide(fresh, directives: CacheControl(nil), policy: .useProtocolRules, now: now)), "hit")
        XCTAssertEqual(kind(HTTPCache.decide(fresh, directives: CacheControl("max-age=50"), policy: .useProtocolRules, now: now)), "fetch")
        XCTAssertEqual(kind(HTTPCache.decide(fresh, directives: CacheControl("min-fresh=550"), policy: .useProtocolRules, now: now)), "fetch")
        XCTAssertEqual(kind(HTTPCache.decide(stale, directives: CacheControl(nil), policy: .useProtocolRules, now: now)), "background")
        XCTAssertEqual(kind(HTTPCache.decide(stale, directives: CacheControl("no-cache"), policy: .useProtocolRules, now: now)), "fetch")
        XCTAssertEqual(kind(HTTPCache.decide(stale, directives: CacheControl("max-stale=100"), policy: .useProtocolRules, now: now)), "stale")
        XCTAssertEqual(kind(HTTPCache.decide(strict, directives: CacheControl("max-stale"), policy: .returnStaleElseLoad, now: now)), "fetch")
        XCTAssertEqual(kind(HTTPCache.decide(strict, directives: CacheControl(nil), policy: .onlyIfCached, now: now)), "unavailable")
        XCTAssertEqual(kind(HTTPCache.decide(nil, directives: CacheControl("only-if-cached"), policy: .useProtocolRules, now: now)), "unavailable")
    }

    private func kind(_ decision: HTTPCache.Decision) -> String {
        switch decision {
        case .serve(_, .hit): "hit"
        case .serve: "stale"
        case .serveAndRevalidate: "background"
        case .fetch: "fetch"
        case .unavailable: "unavailable"
        }
    }

    private func answer(_ headers: [String: String], status: Int = 200) -> CachedResponse {
        CachedResponse(
            url: URL(string: "http://example.test")!, statusCode: status,
            headers: headers.merging(["Date": "Sun, 06 Nov 1994 08:49:37 GMT"]) { old, _ in old }, body: Data(),
            requestDate: date, responseDate: date, varying: [:])
    }
}

extension CachedResponse {
    fileprivate var lifetime: TimeInterval { freshnessLifetime(control) }
}
