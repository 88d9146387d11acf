import EndpointKit

/// The error body the book API sends with a non-2xx status: `{"error": "…"}`.
public struct APIError: Error, Codable, Sendable, CustomStringConvertible {
    /// The HTTP status code.
    public var status: Int?
    /// The server's message.
    public let error: String

    /// Creates an error body with `error` as its message.
    public init(status: Int? = nil, error: String) {
        self.status = status
        self.error = error
    }

    /// For example `404: no book with id 9`.
    public var description: String { "\(status.map(String.init) ?? "?"): \(error)" }

    /// Validates like ``EndpointKit/Endpoint/validate(_:response:data:)``, but turns the book
    /// API's error body into an `APIError` when there is one.
    public static func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        guard !(200..<300).contains(response.statusCode) else { return }
        if let data, var apiError = try? JSONDecoder().decode(APIError.self, from: data) {
            apiError.status = response.statusCode
            throw apiError
        }
        throw EndpointKitError.unacceptableStatus(HTTPFailure(request: request, response: response, body: data ?? Data()))
    }

    /// Like ``validate(_:response:data:)`` for the quotes API, whose error bodies are
    /// `{"statusCode": 404, "statusMessage": "…"}`.
    static func validateQuotable(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        guard !(200..<300).contains(response.statusCode) else { return }
        if let data, let body = try? JSONDecoder().decode(QuotableErrorBody.self, from: data) {
            throw APIError(status: response.statusCode, error: body.statusMessage)
        }
        throw EndpointKitError.unacceptableStatus(HTTPFailure(request: request, response: response, body: data ?? Data()))
    }
}

/// The quotes API's error body.
private struct QuotableErrorBody: Decodable {
    let statusMessage: String
}
