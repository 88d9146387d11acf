import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request method that cannot be sent: it is not an HTTP token (RFC 9110, 9.1). Sent, a
/// method with a space or a line break would end the request line early, and one with a line
/// break could add header fields and a second request of whoever chose it (request smuggling):
/// libcurl and AsyncHTTPClient both write a method as it is given. The call is refused before
/// anything is sent, as the `underlying` error of
/// ``EndpointKitError/invalidRequest(endpoint:underlying:)``.
public struct InvalidMethod: Error, Sendable, Equatable, CustomStringConvertible {
    /// The method, as given.
    public let method: String

    /// A method refused because it is not a token.
    public init(method: String) {
        self.method = method
    }

    /// Names the method, escaped, so that a line break in it shows.
    public var description: String {
        "method \(method.debugDescription) cannot be sent: a method is " + HTTPToken.rule
    }

    /// Throws ``EndpointKitError/invalidRequest(endpoint:underlying:)`` around an
    /// `InvalidMethod` when `request`'s method is not a token.
    static func check(_ request: URLRequest) throws {
        guard let method = request.httpMethod, !HTTPToken.isToken(method) else { return }
        throw EndpointKitError.invalidRequest(endpoint: "URLRequest.httpMethod", underlying: InvalidMethod(method: method))
    }
}
