import Foundation

/// The context of a body that could not be decoded into an endpoint's content.
public struct DecodingFailure: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
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

    /// The body as text, when it is UTF-8.
    public var bodyText: String? { String(data: body, encoding: .utf8) }

    /// For example `Could not decode Book from http://host/books/1: key 'title' not found at ''
    /// (34-byte body)`. Safe to log: the URL is redacted, and no value of the body is quoted
    /// (a decoder's own messages can quote one, so they are left in ``underlying``).
    public var description: String {
        var text = "Could not decode \(type) from \(EndpointKitError.name(url)): "
        text += reason
        if let contentType, !contentType.lowercased().contains("json") {
            text += " (Content-Type is '\(contentType)')"
        }
        return text + " (\(HTTPFailure.size(of: body)))"
    }

    /// The description: `String(reflecting:)` is as safe to log as `String(describing:)`.
    public var debugDescription: String { description }

    private var reason: String {
        guard let error = underlying as? DecodingError else { return "\(underlying)" }
        if body.isEmpty { return "the body is empty" }
        return Self.words(for: error)
    }

    /// What went wrong in `error`, and where, without quoting a value (a decoder's own message
    /// can quote one): `key 'title' not found at 'items[2]'`. SPI for EndpointKit's client
    /// packages.
    @_spi(Transport) public static func words(for error: DecodingError) -> String {
        let codingPath = path(of: error.context.codingPath)
        let at = codingPath.isEmpty ? "" : " at '\(codingPath)'"
        switch error {
        case .keyNotFound(let key, _):
            return "key '\(key.stringValue)' not found\(at)"
        case .typeMismatch(let type, _):
            return "expected \(type)\(at), found another type"
        case .valueNotFound(let type, _):
            return "expected \(type) but found null\(at)"
        case .dataCorrupted:
            return codingPath.isEmpty ? "the body is not in the expected format" : "the value\(at) is not in the expected format"
        @unknown default:
            return "the decoder failed\(at)"
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
