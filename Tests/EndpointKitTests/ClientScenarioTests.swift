import EndpointKit
import XCTest

/// The shared client scenarios, with `URLSessionClient`.
final class ClientScenarioTests: XCTestCase {
    func testURLSessionClientPassesEveryScenario() async throws {
        var scenarios = ClientScenarios(
            name: "URLSessionClient",
            makeClient: { URLSessionClient($0) },
            close: { ($0 as? URLSessionClient)?.invalidate() })
        scenarios.stopLettingCallsFinish = { ($0 as? URLSessionClient)?.invalidate() }
        #if canImport(FoundationNetworking)
            // A chunked body with a trailer field, or a head the server's close cuts short,
            // kills the process inside Foundation on Linux (NativeProtocol.swift: "Transfer
            // completed, but there's no response"; swift-corelibs-foundation#5285), and a
            // header that is not UTF-8 or has no space after its colon, or a status line
            // without the space after its code, fails the transfer ("Failed writing header").
            // Nothing a client of URLSession can prevent.
            scenarios.fatalForms = ["chunked-trailer", "head-cut"]
            // libcurl does not check that a gzip body's compressed data ends: one cut short is
            // handed over as far as it could be decoded.
            scenarios.refusesCutCompressedBodies = false
            scenarios.unreadableForms = ["latin1-header", "no-reason-no-space", "no-space-after-colon"]
        #endif
        try await scenarios.runAll()
    }

    /// Foundation on Linux has no WebSockets: opening one fails at once with a typed error.
    /// Elsewhere the shared WebSocket scenarios run.
    func testURLSessionClientWebSockets() async throws {
        #if canImport(FoundationNetworking)
            let server = try await TestServer.start(Routes.standard)
            let client = URLSessionClient(baseURL: server.baseURL)
            do {
                _ = try await client.webSocket(SocketEndpoint())
                XCTFail("expected webSocketUnsupported")
            } catch EndpointKitError.webSocketUnsupported(let url, let reason) {
                XCTAssertEqual(url?.scheme, "ws")
                XCTAssertTrue(reason.contains("libcurl"), reason)
            }
            client.invalidate()
            await server.shutdown()
        #else
            let scenarios = WebSocketScenarios(
                name: "URLSessionClient",
                makeClient: { URLSessionClient(requestAdapter: $0) },
                close: { ($0 as? URLSessionClient)?.invalidate() })
            try await scenarios.runAll()
        #endif
    }
}
