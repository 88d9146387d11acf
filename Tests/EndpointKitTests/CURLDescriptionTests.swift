import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class CURLDescriptionTests: XCTestCase {
    func testAPostWithHeadersAndAJSONBodyIsQuotedForTheShell() throws {
        var request = URLRequest(url: URL(string: "https://api.example.com/books?q=it's")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"title":"Ender's Game"}"#.utf8)
        XCTAssertEqual(
            request.curlDescription(),
            #"curl -X 'POST' -H 'Authorization: <redacted>' -H 'Content-Type: application/json' "#
                + #"--data-binary '{"title":"Ender'\''s Game"}' 'https://api.example.com/books?q=it'\''s'"#)
    }

    func testABinaryBodyIsDescribedNotDumped() {
        var request = URLRequest(url: URL(string: "https://example.com/upload")!)
        request.httpMethod = "PUT"
        request.httpBody = Data([0xFF, 0xFE, 0x00])
        XCTAssertEqual(
            request.curlDescription(redacting: []),
            "curl -X 'PUT' 'https://example.com/upload'\n# body: 3 bytes of binary data")
    }

    func testCredentialsInTheURLAndProxyAuthorizationAreHidden() {
        var request = URLRequest(url: URL(string: "https://reader:s3cret@api.example.com/books?page=2")!)
        request.setValue("Basic cHJveHk6cGFzcw==", forHTTPHeaderField: "Proxy-Authorization")
        let shown = request.curlDescription()
        XCTAssertEqual(
            shown, "curl -H 'Proxy-Authorization: <redacted>' 'https://REDACTED:REDACTED@api.example.com/books?page=2'")
        XCTAssertFalse(shown.contains("s3cret") || shown.contains("reader"))
        XCTAssertEqual(
            request.curlDescription(redacting: []),
            "curl -H 'Proxy-Authorization: Basic cHJveHk6cGFzcw==' 'https://reader:s3cret@api.example.com/books?page=2'")
    }
}
