@_spi(Transport) import EndpointKit
import Foundation
import NIOHTTP1

/// The `Content-Encoding` of an answer: refused when no client could decode it, checked when
/// a borrowed `HTTPClient` may have left it undecoded.
extension AsyncHTTPClientTransport {
    /// The coding the body may still be in when this client could not tell whether it was
    /// decoded (a borrowed `HTTPClient`); throws for a coding it cannot decode at all.
    func undecodedCoding(of headers: HTTPHeaders, url: URL) throws -> String? {
        // Most answers have no coding: no header list is built for them.
        guard headers.contains(name: "Content-Encoding") else { return nil }
        let header = headers[canonicalForm: "Content-Encoding"].joined(separator: ", ")
        let codings = ContentCoding.codings(in: header)
        guard !codings.isEmpty else { return nil }
        // NIO's decompressor decodes one gzip or deflate coding.
        guard codings.count == 1, ["gzip", "deflate"].contains(codings[0]) else {
            throw ContentCoding.unsupported(header, url: url, decodable: "gzip and deflate, when its HTTPClient decompresses")
        }
        return decompresses ? nil : codings[0]
    }

    /// Throws when `body`'s first bytes show it is still in `coding`.
    func check(_ body: Data, _ coding: String?, url: URL) throws {
        guard let coding, ContentCoding.isStillEncoded(body, as: coding) else { return }
        throw ContentCoding.unsupported(coding, url: url, decodable: "none: its HTTPClient does not decompress")
    }
}
