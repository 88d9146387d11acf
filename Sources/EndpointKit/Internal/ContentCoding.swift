import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response's `Content-Encoding`, as a client decides whether its body can be read: a body
/// under a coding the client did not decode fails the call with
/// `URLError.cannotDecodeContentData` naming the coding, and never reaches
/// `content(from:with:)` as if it were the body. SPI for EndpointKit's client packages.
@_spi(Transport) public enum ContentCoding {
    /// The codings of `header` in the order they were applied, lowercased, without `identity`.
    public static func codings(in header: String?) -> [String] {
        guard let header else { return [] }
        return header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
    }

    /// Whether `body` still starts as `coding` (gzip's magic number, or a zlib header): the
    /// bytes were not decoded.
    public static func isStillEncoded(_ body: Data, as coding: String) -> Bool {
        guard body.count >= 2 else { return false }
        let (first, second) = (body[body.startIndex], body[body.startIndex + 1])
        switch coding {
        case "gzip": return first == 0x1F && second == 0x8B
        case "deflate": return first & 0x0F == 8 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
        default: return false
        }
    }

    /// The error for a body under `header` that this client cannot decode; `decodable` names
    /// the codings it can.
    public static func unsupported(_ header: String, url: URL?, decodable: String) -> EndpointKitError {
        let message = "The response's Content-Encoding '\(header)' cannot be decoded by this client (it decodes \(decodable))"
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let url { info[NSURLErrorFailingURLErrorKey] = url }
        return .transportFailed(url: url, underlying: URLError(.cannotDecodeContentData, userInfo: info))
    }
}
