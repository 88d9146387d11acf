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

    /// A body that does not decode: the decoder's words quote the value, these do not.
    func testADecodingFailureIsWrittenWithoutTheValue() throws {
        let decoding = DecodingError.dataCorrupted(
            .init(codingPath: [], debugDescription: "Cannot initialize Kind from invalid String value b-s3cret"))
        let error = ClientError(
            operationID: "getBook", operationInput: "", request: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/books/1"),
            requestBody: nil, baseURL: URL(string: "https://api.example.com"), response: HTTPResponse(status: .ok), responseBody: nil,
            causeDescription: "Unknown", underlyingError: decoding)
        XCTAssertTrue("\(error)".contains("b-s3cret"))
        XCTAssertEqual(
            error.redactedDescription, "getBook, GET https://api.example.com/books/1 (HTTP 200): Unknown: the body is not in the expected format")
    }

    /// A cause of the runtime's own quotes values after a colon (here a body's first bytes).
    func testTheRuntimesCauseIsWrittenUpToItsValues() throws {
        let cause = "Invalid base64-encoded string (first 128 bytes): 'b-s3cret'"
        let error = ClientError(
            operationID: "getCover", operationInput: "", request: nil, requestBody: nil, baseURL: nil, response: nil, responseBody: nil,
            causeDescription: cause, underlyingError: RuntimeLike(description: cause))
        XCTAssertEqual(error.redactedDescription, "getCover (no answer): Invalid base64-encoded string (first 128 bytes)")
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
        XCTAssertTrue(line.hasPrefix("getBook, GET https://api.example.com/v1/books/1?session=REDACTED (HTTP 200): Unknown: "), line)
        for secret in Self.secrets {
            XCTAssertFalse(line.contains(secret), line)
        }
    }
}

/// An error that describes itself as the runtime's do.
private struct RuntimeLike: Error, CustomStringConvertible {
    let description: String
}
