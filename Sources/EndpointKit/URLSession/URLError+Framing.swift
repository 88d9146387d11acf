import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLError {
    /// The error for a response whose `Content-Length` fields give different lengths, given
    /// the field as Foundation joins them (`86, 3`); `nil` for one length, or one repeated.
    /// Where such a body ends is unknown, and RFC 9112 (6.3) has a client refuse the answer:
    /// libcurl instead reads as many bytes as the last field says, and hands a body cut short
    /// over as whole. AsyncHTTPClientClient refuses it with the same code.
    static func differingLengths(in contentLength: String?) -> URLError? {
        guard let field = contentLength, field.contains(",") else { return nil }
        let lengths = Set(field.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        guard lengths.count > 1 else { return nil }
        return URLError(
            .cannotParseResponse,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "The answer is not valid HTTP: its Content-Length fields differ (\(field)), so where its body ends is unknown"
            ])
    }
}
