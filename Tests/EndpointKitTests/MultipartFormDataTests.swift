import Foundation
import XCTest

@testable import EndpointKit

final class MultipartFormDataTests: ServerTestCase {
    override var routes: TestServer.Handler { TransferRoutes.handler }

    func testFieldsAndFilePartsAreParsedByTheServer() async throws {
        let cover = TransferRoutes.bytes(0..<5_000)
        let file = temporaryFile("cover.png", contents: cover)
        defer { try? FileManager.default.removeItem(at: file) }
        var form = MultipartFormData()
        form.append("Dune", name: "title")
        form.append("Stanisław \"Lem\"", name: "author name")
        form.append(Data("{\"a\":1}".utf8), name: "meta", fileName: "meta.json", mimeType: "application/json")
        try form.append(fileAt: file, name: "cover")
        let parts = try await client.upload(MultipartUpload(form: form))
        XCTAssertEqual(parts.count, 4)
        XCTAssertEqual(parts[0].disposition, #"form-data; name="title""#)
        XCTAssertEqual(parts[0].text, "Dune")
        XCTAssertEqual(parts[1].disposition, #"form-data; name="author name""#)
        XCTAssertEqual(parts[1].text, "Stanisław \"Lem\"")
        XCTAssertEqual(parts[2].disposition, #"form-data; name="meta"; filename="meta.json""#)
        XCTAssertEqual(parts[2].type, "application/json")
        XCTAssertEqual(parts[3].disposition, #"form-data; name="cover"; filename="EndpointKitTests-cover.png""#)
        XCTAssertEqual(parts[3].type, "image/png")
        XCTAssertEqual(parts[3].length, "5000")
        let request = try XCTUnwrap(server.requests.last)
        XCTAssertEqual(request.header("Content-Type"), form.contentType)
        XCTAssertEqual(request.header("Content-Length"), "\(request.body.count)", "sent with its length, not chunked")
        XCTAssertEqual(request.body, try form.encoded())
        let cut = TransferRoutes.multipartParts(request.body, contentType: form.contentType)
        XCTAssertEqual(cut[3].body, cover)
    }

    func testQuotesAndLineBreaksInNamesAreEscaped() throws {
        var form = MultipartFormData(boundary: "b")
        form.append(Data(), name: "a\"b\r\nc", fileName: "x\".txt", mimeType: nil)
        let text = String(decoding: try form.encoded(), as: UTF8.self)
        XCTAssertEqual(text, "--b\r\nContent-Disposition: form-data; name=\"a%22b%0D%0Ac\"; filename=\"x%22.txt\"\r\n\r\n\r\n--b--\r\n")
    }

    func testTheTemporaryBodyFileIsDeletedAfterTheCall() async throws {
        let before = leftoverTemporaryFiles()
        var form = MultipartFormData()
        form.append("v", name: "k")
        _ = try await client.upload(MultipartUpload(form: form))
        XCTAssertEqual(leftoverTemporaryFiles().subtracting(before), [])
    }

    func testAMissingFileIsRefusedWhenAppended() {
        var form = MultipartFormData()
        XCTAssertThrowsError(try form.append(fileAt: temporaryFile("nope"), name: "f"))
    }
}
