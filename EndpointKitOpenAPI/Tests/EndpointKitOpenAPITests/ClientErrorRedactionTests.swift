import EndpointKit
import EndpointKitOpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import XCTest

/// A generated client's error, written to a log: `redactedDescription` keeps every secret the
/// runtime's own `description` writes out.
final class ClientErrorRedactionTests: XCTestCase {
    /// The secrets of these calls: a password in the server URL, a query parameter, a header
    /// parameter, a cookie the answer set.
    static let secrets = ["pw-s3cret", "q-s3cret", "h-s3cret", "c-s3cret"]

    func testAFailedOperationIsWrittenWithoutItsSecrets() async throws {
        for (name, make) in GeneratedClientTests.clients {
            let refused = try XCTUnwrap(URL(string: "http://alice:pw-s3cret@127.0.0.1:1"))
            let endpointKit = make(refused, [])
            let client = Client(serverURL: refused, transport: EndpointKitTransport(client: endpointKit))
            do {
                _ = try await client.echo(query: .init(q: "q-s3cret"), headers: .init(xTrace: "h-s3cret"))
                XCTFail("\(name): a refused connection answered")
            } catch let error as ClientError {
                // What the runtime writes, as documented: the input, the fields, the server URL.
                for secret in Self.secrets.prefix(3) {
                    XCTAssertTrue("\(error)".contains(secret), "\(name): the runtime's description no longer holds \(secret)")
                }
                let line = error.redactedDescription
                for secret in Self.secrets {
                    XCTAssertFalse(line.contains(secret), "\(name): \(line)")
                }
                XCTAssertTrue(line.hasPrefix("echo, GET http://REDACTED:REDACTED@127.0.0.1:1/echo?q=REDACTED (no answer): "), "\(name): \(line)")
                XCTAssertTrue(line.contains("127.0.0.1 port 1"), "\(name): the underlying error's words: \(line)")
            }
            try await endpointKit.shutdown()
        }
    }

    func testAnAnswerIsWrittenByItsStatusNotItsFields() throws {
        let error = ClientError(
            operationID: "getBook", operationInput: "q-s3cret",
            request: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/books/1?session=q-s3cret"),
            requestBody: nil, baseURL: URL(string: "https://api.example.com/v1/"),
            response: HTTPResponse(status: .ok, headerFields: [.setCookie: "id=c-s3cret"]), responseBody: nil,
            causeDescription: "Unknown", underlyingError: CocoaError(.coderReadCorrupt))
        XCTAssertTrue("\(error)".contains("c-s3cret"))
        let line = error.redactedDescription
        XCTAssertTrue(line.hasPrefix("getBook, GET https://api.example.com/v1/books/1?session=REDACTED (HTTP 200): Unknown "), line)
        for secret in Self.secrets {
            XCTAssertFalse(line.contains(secret), line)
        }
    }
}
