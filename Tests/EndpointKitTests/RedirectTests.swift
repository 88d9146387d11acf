import Foundation
import XCTest

@testable import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Redirects are followed as HTTP is really spoken: 307/308 replay method and body, 303 (and
/// 301/302 after POST) turn into GET, and credentials stay with their origin.
final class RedirectTests: ServerTestCase {
    private func post(through status: Int, to target: String = "/echo") -> EchoEndpoint {
        EchoEndpoint(method: .post, path: "redirect", query: [.init(name: "status", value: "\(status)"), .init(name: "to", value: target)]) {
            try $0.setJSONBody(["title": "Dune"])
        }
    }

    func testTemporaryAndPermanentRedirectsReplayMethodAndBody() async throws {
        for status in [307, 308] {
            let echo = try await client.request(post(through: status))
            XCTAssertEqual(echo.method, "POST", "\(status)")
            XCTAssertEqual(echo.body, #"{"title":"Dune"}"#, "\(status)")
            XCTAssertEqual(echo.headers["content-type"], "application/json", "\(status)")
        }
    }

    func testSeeOtherAndPostThroughFoundOrMovedBecomeGet() async throws {
        for status in [301, 302, 303] {
            let echo = try await client.request(post(through: status))
            XCTAssertEqual(echo.method, "GET", "\(status)")
            XCTAssertEqual(echo.bodyLength, 0, "\(status)")
            XCTAssertNil(echo.headers["content-type"], "\(status)")
        }
        let put = EchoEndpoint(method: .put, path: "redirect", query: [.init(name: "status", value: "302")]) {
            $0.setTextBody("kept")
        }
        let echo = try await client.request(put)
        XCTAssertEqual(echo.method, "PUT")
        XCTAssertEqual(echo.body, "kept")
    }

    func testAuthorizationIsNotCarriedToAnotherOrigin() async throws {
        let other = try await TestServer.start(Routes.standard)
        defer { Task { await other.shutdown() } }
        let sameOrigin = try await client.request(
            EchoEndpoint(path: "redirect", query: [.init(name: "to", value: "/echo")], headers: ["Authorization": "Bearer t"]))
        XCTAssertEqual(sameOrigin.headers["authorization"], "Bearer t")
        let crossOrigin = try await client.request(
            EchoEndpoint(
                path: "redirect", query: [.init(name: "to", value: other.baseURL.absoluteString + "/echo")],
                headers: ["Authorization": "Bearer t", "X-Keep": "yes", "Host": "api.example.test"]))
        XCTAssertNil(crossOrigin.headers["authorization"])
        XCTAssertEqual(crossOrigin.headers["x-keep"], "yes")
        // A Host set by hand (a virtual host behind an address) stays with its origin too.
        XCTAssertEqual(server.requests.last?.header("Host"), "api.example.test")
        XCTAssertEqual(crossOrigin.headers["host"], "127.0.0.1:\(other.port)")
        XCTAssertEqual(other.requests.count, 1)
    }

    func testRedirectLoopsEndWithAClearError() async throws {
        // Every redirect is followed by the pipeline, so a GET loop ends as a POST loop does.
        let get = await complete(PathEndpoint(path: "loop"))
        guard case EndpointKitError.redirectRefused(_, let getReason)? = get.error else {
            return XCTFail("unexpected \(get)")
        }
        XCTAssertTrue(getReason.contains("more than 20 redirects"), getReason)
        XCTAssertEqual(server.requests.filter { $0.method == "GET" }.count, 21)

        let post = await complete(EchoEndpoint(method: .post, path: "loop") { $0.setTextBody("x") })
        guard case EndpointKitError.redirectRefused(_, let reason)? = post.error else {
            return XCTFail("unexpected \(post)")
        }
        XCTAssertTrue(reason.contains("more than 20 redirects"), reason)
        XCTAssertEqual(server.requests.filter { $0.method == "POST" }.count, 21)
        XCTAssertTrue(server.requests.filter { $0.method == "POST" }.allSatisfy { $0.body == Data("x".utf8) })
    }
}
