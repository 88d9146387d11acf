import EndpointKit
import EndpointKitAsyncHTTPClient
import EndpointKitTelemetry
import Foundation
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import Tracing
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Nothing secret reaches a log line, a span (name, attribute, event, status, recorded error)
/// or a metric dimension, on any path a call takes, with both clients: every line, span and
/// metric is captured and searched for each secret.
final class SecretsTests: XCTestCase {
    /// Each kind of secret a call carries, and the value that stands for it.
    static let secrets: [(kind: String, value: String)] = [
        ("URL user", "s3cr3t-user"), ("URL password", "s3cr3t-pass"), ("query value", "s3cr3t-query"),
        ("Authorization", "s3cr3t-auth"), ("Cookie", "s3cr3t-cookie"), ("Set-Cookie", "s3cr3t-setcookie"),
        ("X-Api-Key", "s3cr3t-apikey"), ("Sec-WebSocket-Protocol", "s3cr3t-wsprotocol"), ("user-named header", "s3cr3t-usernamed"),
        ("request body", "s3cr3t-reqbody"), ("response body", "s3cr3t-resbody"),
    ]

    /// The clients, each sending the secret header fields with every request, and each keeping
    /// the cookie the redirect path sets (sent with the next call) in a jar of its own, never in
    /// `HTTPCookieStorage.shared`: on Linux a file, where it outlived the run and went out with
    /// every later program's requests to 127.0.0.1, whatever the port.
    static let clients: [(String, TelemetryTests.MakeClient)] = {
        // A WebSocket subprotocol that carries a bearer token, as Kubernetes' API server takes one.
        let headers = [
            "Authorization": "Bearer s3cr3t-auth", "Cookie": "session=s3cr3t-cookie", "X-Api-Key": "s3cr3t-apikey",
            "Sec-WebSocket-Protocol": "base64url.bearer.authorization.k8s.io.s3cr3t-wsprotocol", "X-Tenant-Token": "s3cr3t-usernamed",
        ]
        return [
            ("URLSessionClient", {
                URLSessionClient(
                    requestAdapter: BaseRequestAdapter(baseURL: $0, headers: headers), monitors: $1, retryPolicy: .fast, timeout: 0.5,
                    cookieStorage: CookieJar())
            }),
            ("AsyncHTTPClientClient", {
                AsyncHTTPClientClient(
                    requestAdapter: BaseRequestAdapter(baseURL: $0, headers: headers), monitors: $1, retryPolicy: .fast, timeout: 0.5,
                    cookieStorage: CookieJar())
            }),
        ]
    }()

    struct Socket: WebSocketEndpoint {
        func makeRequest() throws -> URLRequest { try URLRequest(.get, "ws/echo?token=s3cr3t-query") }
    }

    struct SecretDownload: DownloadEndpoint {
        typealias Content = URL
        func makeRequest() throws -> URLRequest { try URLRequest(.get, "bytes?count=2000&token=s3cr3t-query") }
    }

    /// Any answer, refused by its validation with the body it carried.
    struct Rejected: Endpoint {
        typealias Content = Void
        let path: String
        func makeRequest() throws -> URLRequest { try URLRequest(.get, path) }
        func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
            throw EndpointKitError.unacceptableStatus(HTTPFailure(request: request, response: response, body: data ?? Data()))
        }
        func content(from response: URLResponse?, with body: Data) throws {}
    }

    typealias Path = @Sendable (_ client: any Client, _ server: TestServer, _ refused: any Client) async -> Void

    /// The paths a call takes, each one call (or a few) carrying the secrets.
    static let paths: [(name: String, run: Path)] = [
        ("success", { client, _, _ in _ = try? await client.request(EchoEndpoint(query: [.init(name: "token", value: "s3cr3t-query")])) }),
        ("4xx", { client, _, _ in _ = try? await client.request(PathEndpoint(path: "status?code=418&body=s3cr3t-resbody&token=s3cr3t-query")) }),
        ("5xx", { client, _, _ in _ = try? await client.request(PathEndpoint(path: "status?code=503&body=s3cr3t-resbody&token=s3cr3t-query")) }),
        ("decoding failure", { client, _, _ in _ = try? await client.request(GetBook(path: "status?code=200&body=s3cr3t-resbody&token=s3cr3t-query")) }),
        ("timeout", { client, _, _ in _ = try? await client.request(PathEndpoint(path: "stall-body?token=s3cr3t-query")) }),
        ("refused", { _, _, refused in _ = try? await refused.request(PathEndpoint(path: "x?token=s3cr3t-query")) }),
        ("cancelled", { client, server, _ in
            let slow = Task { try await client.request(PathEndpoint(path: "slow?seconds=10&token=s3cr3t-query")) }
            _ = await waitUntil(timeout: 5) { server.requests.contains { $0.path == "/slow" } }
            slow.cancel()
            _ = await slow.result
        }),
        ("redirect", { client, _, _ in
            _ = try? await client.request(EchoEndpoint(path: "cookies/set?sid=s3cr3t-setcookie"))
            _ = try? await client.request(EchoEndpoint(path: "redirect?to=%2Fecho%3Ftoken%3Ds3cr3t-query"))
        }),
        ("retry", { client, _, _ in _ = try? await client.request(PathEndpoint(path: "flaky?fail=2&status=500&token=s3cr3t-query")) }),
        ("stream", { client, _, _ in
            if let stream = try? await client.stream(PathEndpoint(path: "stream?token=s3cr3t-query")) { _ = try? await stream.reduce(0) { $0 + $1.count } }
        }),
        ("download", { client, _, _ in
            if let file = try? await client.download(SecretDownload()) { try? FileManager.default.removeItem(at: file) }
        }),
        ("upload", { client, _, _ in
            _ = try? await client.upload(Upload(path: "upload?token=s3cr3t-query", body: .data(Data("s3cr3t-reqbody".utf8))))
        }),
        ("WebSocket", { client, _, _ in try? await client.webSocket(Socket()).close() }),
    ]

    /// Everything the three monitors wrote while `path` ran.
    struct Capture {
        var lines: [String] = []
        var spans: [String] = []
        var metrics: [String] = []
        var all: [String] { lines + spans + metrics }
    }

    func capture(_ path: Path, with makeClient: TelemetryTests.MakeClient, logsBodies: Bool, bodyLimit: Int = 1024) async throws -> Capture {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "secrets", factory: { _ in handler })
        logger.logLevel = .trace
        let tracer = InMemoryTracer()
        let metrics = TestMetrics()
        let monitors: [any CallMonitor] = [
            LoggingMonitor(logger: logger, logsBodies: logsBodies, bodyLimit: bodyLimit, redactedHeaders: ["X-Tenant-Token"]),
            TracingMonitor(tracer: tracer), MetricsMonitor(factory: metrics),
        ]
        let server = try await TestServer.start(FaultRoutes().handler)
        let stopped = try await TestServer.start(FaultRoutes().handler)
        let refusedURL = try XCTUnwrap(URL(string: "http://s3cr3t-user:s3cr3t-pass@127.0.0.1:\(stopped.port)"))
        await stopped.shutdown()
        let baseURL = try XCTUnwrap(URL(string: "http://s3cr3t-user:s3cr3t-pass@127.0.0.1:\(server.port)"))
        let client = makeClient(baseURL, monitors)
        let refused = makeClient(refusedURL, monitors)
        await path(client, server, refused)
        try await client.shutdown()
        try await refused.shutdown()
        await server.shutdown()

        var capture = Capture()
        capture.lines = handler.entries.map { entry in
            "\(entry.level) \(entry.message) " + entry.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        capture.spans = tracer.finishedSpans.map { span in
            var text = span.operationName
            span.attributes.forEach { key, value in text += " \(key)=\(value)" }
            for event in span.events {
                text += " event \(event.name)"
                event.attributes.forEach { key, value in text += " \(key)=\(value)" }
            }
            // As an OpenTelemetry exporter sends a recorded error: exception.message.
            for error in span.errors { text += " exception.message=\(String(describing: error.error)) \(String(reflecting: error.error))" }
            if let status = span.status { text += " status=\(status.code) \(status.message ?? "")" }
            return text
        }
        capture.metrics = metrics.timers.map { "\($0.label) \($0.dimensions)" } + metrics.recorders.map { "\($0.label) \($0.dimensions)" }
            + metrics.meters.map { "\($0.label) \($0.dimensions)" }
        return capture
    }

    func testNoSecretOnAnyPathWithEitherClient() async throws {
        var table = ["| path | client | lines | spans | " + Self.secrets.map(\.kind).joined(separator: " | ") + " |"]
        for (name, makeClient) in Self.clients {
            for (pathName, path) in Self.paths {
                let capture = try await capture(path, with: makeClient, logsBodies: false)
                XCTAssertFalse(capture.lines.isEmpty, "\(name) \(pathName): nothing logged")
                XCTAssertFalse(capture.spans.isEmpty, "\(name) \(pathName): no span")
                var row = "| \(pathName) | \(name) | \(capture.lines.count) | \(capture.spans.count) |"
                for secret in Self.secrets {
                    let leaks = capture.all.filter { $0.contains(secret.value) }
                    XCTAssertEqual(leaks, [], "\(name) \(pathName): \(secret.kind)")
                    row += leaks.isEmpty ? " clean |" : " LEAKED |"
                }
                table.append(row)
            }
        }
        print(table.joined(separator: "\n"))
    }

    /// With `logsBodies`, bodies appear only as the body metadata of the trace line, each cut
    /// to `bodyLimit` bytes; every other secret stays out.
    func testBodiesOnlyWhenAskedAndNoLongerThanTheLimit() async throws {
        for (name, makeClient) in Self.clients {
            let letters = Data(String(repeating: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", count: 2_000).utf8)
            let large: Path = { client, _, _ in
                _ = try? await client.request(Rejected(path: "chunked-big"))
                _ = try? await client.request(EchoEndpoint(method: .post, configure: { $0.httpBody = letters }))
                _ = try? await client.request(PathEndpoint(path: "status?code=418&body=s3cr3t-resbody"))
            }
            // Markers the lines' call IDs cannot hold: hexadecimal, they never hold "G"; and a
            // run of 8 "B"s comes in one process of some 10^8 (its IDs share most digits).
            // "ABCD" and "BBBB" each come in about one of 2,000, and "ABCD" once did.
            func showsABody(_ line: String) -> Bool {
                line.contains("s3cr3t-") || line.contains("ABCDEFGH") || line.contains("BBBBBBBB")
            }
            let quiet = try await capture(large, with: makeClient, logsBodies: false, bodyLimit: 16)
            XCTAssertFalse(quiet.lines.contains(where: showsABody), "\(name): \(quiet.lines)")

            let loud = try await capture(large, with: makeClient, logsBodies: true, bodyLimit: 16)
            let bodyLines = loud.lines.filter { $0.contains("heads and bodies") }
            XCTAssertEqual(bodyLines.count, 3, "\(name): \(loud.lines)")
            XCTAssertTrue(bodyLines.contains { $0.contains("response.body=s3cr3t-resbody") }, name)
            XCTAssertTrue(bodyLines.allSatisfy { $0.contains("Authorization: REDACTED; Cookie: REDACTED") && $0.contains("X-Api-Key: REDACTED") && $0.contains("X-Tenant-Token: REDACTED") }, name)
            // Each large body: its first 16 bytes, then the marker with its whole size.
            XCTAssertTrue(bodyLines.contains { $0.contains("response.body=BBBBBBBBBBBBBBBB… (1048576 bytes)") }, "\(name): \(bodyLines)")
            XCTAssertTrue(bodyLines.contains { $0.contains("request.body=ABCDEFGHIJKLMNOP… (52000 bytes)") }, "\(name): \(bodyLines)")
            XCTAssertFalse(bodyLines.contains { $0.contains("BBBBBBBBBBBBBBBBB") || $0.contains("ABCDEFGHIJKLMNOPQ") }, "\(name): \(bodyLines)")
            let summaries = loud.lines.filter { !$0.contains("heads and bodies") }
            XCTAssertFalse(summaries.contains(where: showsABody), "\(name): \(summaries)")
            for secret in Self.secrets where !secret.kind.hasSuffix("body") {
                XCTAssertFalse(loud.all.contains { $0.contains(secret.value) }, "\(name): \(secret.kind)")
            }
        }
    }
}
