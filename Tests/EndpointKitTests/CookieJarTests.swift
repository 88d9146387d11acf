import Foundation
import XCTest

@_spi(Locking) @testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RFC 6265's rules, as `Set-Cookie` fields from one URL and requests to others.
final class CookieJarTests: XCTestCase {
    private let api = URL(string: "https://api.example.com/v1/books")!

    private func sent(_ jar: CookieJar, to url: String) -> [String] {
        jar.cookiesToSend(to: URL(string: url)!).map { "\($0.name)=\($0.value)" }
    }

    func testHostOnlyUnlessADomainIsGiven() {
        let jar = CookieJar()
        jar.keepCookies(setBy: ["host=1; Path=/", "wide=2; Domain=example.com; Path=/"], from: api)
        XCTAssertEqual(sent(jar, to: "https://api.example.com/").sorted(), ["host=1", "wide=2"])
        XCTAssertEqual(sent(jar, to: "https://www.example.com/"), ["wide=2"])
        XCTAssertEqual(sent(jar, to: "https://example.com/"), ["wide=2"])
        XCTAssertEqual(sent(jar, to: "https://notexample.com/"), [])
    }

    func testACookieForAForeignDomainIsRefused() {
        let jar = CookieJar()
        jar.keepCookies(setBy: ["evil=1; Domain=evil.com", "sub=2; Domain=www.api.example.com"], from: api)
        XCTAssertTrue(jar.cookies.isEmpty)
    }

    /// A `Domain` of one label (`com`) would send the cookie to every host under it, and an IP
    /// address has no subdomains: both are refused (RFC 6265, 5.1.3 and 5.3; curl refuses the
    /// first too). A domain equal to the host stays.
    func testACookieForATopLevelDomainOrAnIPAddressSuffixIsRefused() {
        let jar = CookieJar()
        jar.keepCookies(setBy: ["tld=1; Domain=com; Path=/", "dot=2; Domain=.com; Path=/"], from: api)
        XCTAssertEqual(sent(jar, to: "https://other.com/"), [])
        XCTAssertTrue(jar.cookies.isEmpty)
        let ip = URL(string: "http://10.0.0.1/")!
        jar.keepCookies(setBy: ["suffix=3; Domain=0.0.1; Path=/", "same=4; Domain=10.0.0.1; Path=/"], from: ip)
        XCTAssertEqual(sent(jar, to: "http://192.0.0.1/"), [])
        XCTAssertEqual(sent(jar, to: "http://10.0.0.1/"), ["same=4"])
        let local = URL(string: "http://localhost:8080/")!
        jar.keepCookies(setBy: ["local=5; Domain=localhost; Path=/"], from: local)
        XCTAssertEqual(sent(jar, to: "http://localhost:8080/"), ["local=5"])
    }

    /// Foundation's storage, as the clients use it, keeps to the same rules: on its own it kept
    /// `Domain=com` and sent it to every `.com` host.
    func testFoundationStorageRefusesATopLevelDomainToo() {
        // On Linux a group's storage is a file: one name, emptied before and after.
        let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "EndpointKitTests")
        storage.deleteCookies()
        defer { storage.deleteCookies() }
        storage.keepCookies(setBy: ["tld=1; Domain=com; Path=/", "wide=2; Domain=example.com; Path=/", "host=3; Path=/"], from: api)
        XCTAssertEqual(storage.cookiesToSend(to: URL(string: "https://other.com/")!).map(\.name), [])
        XCTAssertEqual(storage.cookiesToSend(to: URL(string: "https://api.example.com/")!).map(\.name).sorted(), ["host", "wide"])
        storage.keepCookies(setBy: ["suffix=4; Domain=0.0.1; Path=/"], from: URL(string: "http://10.0.0.1/")!)
        XCTAssertEqual(storage.cookiesToSend(to: URL(string: "http://192.0.0.1/")!).map(\.name), [])
    }

    /// Foundation's storage, as the clients use it, ends cookies by `Max-Age` too: on Linux on
    /// its own it kept `x=1; Max-Age=0` and sent it, and replaced a cookie that a logout
    /// deleted (`a=; Expires=Thu, 01-Jan-1970 00:00:00 GMT; Max-Age=0`) with an empty one.
    func testFoundationStorageEndsCookiesByMaxAge() {
        let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "EndpointKitTests")
        storage.deleteCookies()
        defer { storage.deleteCookies() }
        let root = URL(string: "https://api.example.com/")!
        storage.keepCookies(
            setBy: ["a=1; Path=/", "b=2; Max-Age=60; Path=/", "gone=3; Max-Age=0; Path=/", "past=4; Max-Age=-5; Path=/"], from: api)
        XCTAssertEqual(storage.cookiesToSend(to: root).map { "\($0.name)=\($0.value)" }.sorted(), ["a=1", "b=2"])
        let expiry = storage.cookiesToSend(to: root).first { $0.name == "b" }?.expiresDate
        XCTAssertEqual(expiry?.timeIntervalSinceNow ?? 0, 60, accuracy: 5)
        storage.keepCookies(setBy: ["a=; Expires=Thu, 01-Jan-1970 00:00:00 GMT; Max-Age=0; Path=/", "b=; Max-Age=0; Path=/"], from: api)
        XCTAssertEqual(storage.cookiesToSend(to: root).map(\.name), [])
    }

    func testPathsMatchAtSlashesAndDefaultToTheDirectory() {
        let jar = CookieJar()
        jar.keepCookies(setBy: ["dir=1", "v1=2; Path=/v1", "root=3; Path=/"], from: api)
        XCTAssertEqual(sent(jar, to: "https://api.example.com/v1/books"), ["dir=1", "v1=2", "root=3"])
        XCTAssertEqual(sent(jar, to: "https://api.example.com/v10"), ["root=3"])
        XCTAssertEqual(sent(jar, to: "https://api.example.com/"), ["root=3"])
    }

    func testSecureCookiesGoOnlyOverHTTPS() {
        let jar = CookieJar()
        jar.keepCookies(setBy: ["s=1; Secure; Path=/", "p=2; Path=/"], from: api)
        XCTAssertEqual(sent(jar, to: "http://api.example.com/"), ["p=2"])
        XCTAssertEqual(sent(jar, to: "https://api.example.com/").sorted(), ["p=2", "s=1"])
    }

    func testExpiryByMaxAgeThenExpiresAndDeletion() {
        let clock = Locked(Date(timeIntervalSince1970: 2_000_000_000))
        let jar = CookieJar(capacity: 10, now: { clock.withLock { $0 } })
        jar.keepCookies(
            setBy: ["short=1; Max-Age=60; Path=/", "dated=2; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/", "old=3; Expires=Wed, 21 Oct 2001 07:28:00 GMT"],
            from: api)
        XCTAssertEqual(sent(jar, to: "https://api.example.com/").sorted(), ["dated=2", "short=1"])
        clock.withLock { $0.addTimeInterval(61) }
        XCTAssertEqual(sent(jar, to: "https://api.example.com/"), ["dated=2"])
        jar.keepCookies(setBy: ["dated=gone; Max-Age=0; Path=/"], from: api)
        XCTAssertEqual(sent(jar, to: "https://api.example.com/"), [])
    }

    func testANewerCookieReplacesTheOlderAndCapacityDropsTheOldest() {
        let jar = CookieJar(capacity: 2)
        jar.keepCookies(setBy: ["a=1; Path=/", "a=2; Path=/", "b=3; Path=/", "c=4; Path=/"], from: api)
        XCTAssertEqual(sent(jar, to: "https://api.example.com/").sorted(), ["b=3", "c=4"])
        jar.removeAll()
        XCTAssertTrue(jar.cookies.isEmpty)
    }

    func testGarbageFieldsAreIgnored() {
        let jar = CookieJar()
        jar.keepCookies(setBy: ["", ";;;", "=novalue", "x=1; Max-Age=abc; Path=/; Domain="], from: api)
        XCTAssertEqual(jar.cookies.map(\.name), ["x"])
    }
}
