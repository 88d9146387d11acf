import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The context of a response whose status an endpoint did not accept.
public struct HTTPFailure: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The most bytes of a body an error keeps.
    public static let bodyLimit = 64 * 1024

    /// The status code, such as `404`.
    public let statusCode: Int
    /// The method of the request, such as `GET`.
    public let method: String?
    /// The URL of the request that got this answer.
    public let url: URL?
    /// The response headers, names as the server sent them.
    public let headers: [String: String]
    /// The body, or its first ``bodyLimit`` bytes.
    public let body: Data

    /// Captures a failed response.
    public init(request: URLRequest?, response: HTTPURLResponse, body: Data) {
        self.statusCode = response.statusCode
        self.method = request?.httpMethod
        self.url = response.url ?? request?.url
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in response.allHeaderFields {
            headers[name] = value
        }
        self.headers = headers
        self.body = body.prefix(Self.bodyLimit)
    }

    /// Throws ``EndpointKitError/unacceptableStatus(_:)`` unless the status is in `200..<300`:
    /// the default validation of every endpoint kind.
    public static func check(_ request: URLRequest?, response: HTTPURLResponse, body: Data?) throws {
        guard accepts(response.statusCode) else {
            throw EndpointKitError.unacceptableStatus(
                HTTPFailure(request: request, response: response, body: body ?? Data()))
        }
    }

    /// Whether the default validation accepts `statusCode`: one in `200..<300`.
    static func accepts(_ statusCode: Int) -> Bool {
        (200..<300).contains(statusCode)
    }

    /// The body as text, when it is UTF-8.
    public var bodyText: String? { String(data: body, encoding: .utf8) }

    /// For example `HTTP 404 (not found) from GET http://host/books/9?key=REDACTED (34-byte
    /// body)`: safe to log, so it names the URL redacted and the body by its size only. The
    /// server's words are in ``bodyText``.
    public var description: String {
        let status = HTTPURLResponse.localizedString(forStatusCode: statusCode)
        let target = [method, url?.redactedDescription].compactMap { $0 }.joined(separator: " ")
        return "HTTP \(statusCode) (\(status)) from \(target.isEmpty ? "<no URL>" : target) (\(Self.size(of: body)))"
    }

    /// The description: `String(reflecting:)` is as safe to log as `String(describing:)`.
    public var debugDescription: String { description }

    /// `empty body`, or `34-byte body`: what a safe message says of a body.
    static func size(of body: Data) -> String {
        body.isEmpty ? "empty body" : "\(body.count)-byte body"
    }
}
