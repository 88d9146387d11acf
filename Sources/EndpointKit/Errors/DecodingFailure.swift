import Foundation

/// The context of a body that could not be decoded into an endpoint's content.
public struct DecodingFailure: Sendable, CustomStringConvertible {
    /// The type that was being decoded, such as `Book`.
    public let type: String
    /// The URL of the request.
    public let url: URL?
    /// The status code of the response.
    public let statusCode: Int?
    /// The response's `Content-Type`, if any.
    public let contentType: String?
    /// The error the decoder threw, usually a `DecodingError`.
    public let underlying: any Error
    /// The body, or its first ``HTTPFailure/bodyLimit`` bytes.
    public let body: Data

    /// Captures a decoding failure.
    public init(
        type: String, url: URL?, statusCode: Int?, contentType: String?, underlying: any Error,
        body: Data
    ) {
        self.type = type
        self.url = url
        self.statusCode = statusCode
        self.contentType = contentType
        self.underlying = underlying
        self.body = body.prefix(HTTPFailure.bodyLimit)
    }

    /// The coding path where decoding failed, such as `items[2].author.name`.
    public var codingPath: String {
        guard let error = underlying as? DecodingError else { return "" }
        return Self.path(of: error.context.codingPath)
    }

    /// For example `Could not decode Book from http://host/books/1: key 'title' not found at ''`.
    public var description: String {
        var text = "Could not decode \(type) from \(url?.absoluteString ?? "<no URL>"): "
        text += reason
        if let contentType, !contentType.lowercased().contains("json") {
            text += " (Content-Type is '\(contentType)')"
        }
        return text + "; body: " + BodySnippet.describe(body)
    }

    private var reason: String {
        guard let error = underlying as? DecodingError else { return "\(underlying)" }
        if body.isEmpty { return "the body is empty" }
        let at = codingPath.isEmpty ? "" : " at '\(codingPath)'"
        switch error {
        case .keyNotFound(let key, _):
            return "key '\(key.stringValue)' not found\(at)"
        case .typeMismatch(let type, let context):
            return "expected \(type)\(at): \(context.debugDescription)"
        case .valueNotFound(let type, _):
            return "expected \(type) but found null\(at)"
        case .dataCorrupted(let context):
            return "\(context.debugDescription)\(at)"
        @unknown default:
            return "\(error)"
        }
    }

    static func path(of codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }
}

extension DecodingError {
    fileprivate var context: Context {
        switch self {
        case .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context), .dataCorrupted(let context):
            context
        @unknown default:
            Context(codingPath: [], debugDescription: "\(self)")
        }
    }
}
