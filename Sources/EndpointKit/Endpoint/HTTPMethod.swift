/// An HTTP request method such as `GET` or `POST`.
///
/// Any token is allowed (`HTTPMethod("PROPFIND")`); the common ones are static members.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The method token as sent on the wire, upper-cased.
    public let rawValue: String

    /// Creates a method from its token; the token is upper-cased.
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    /// Creates a method from its token; the token is upper-cased.
    public init(_ rawValue: String) {
        self.init(rawValue: rawValue)
    }

    /// Creates a method from a string literal such as `"GET"`.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The method token.
    public var description: String { rawValue }

    /// Whether repeating the request has the same effect as sending it once (RFC 9110, 9.2.2).
    public var isIdempotent: Bool {
        Self.idempotent.contains(self)
    }

    private static let idempotent: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, .trace]

    /// `GET`
    public static let get = HTTPMethod("GET")
    /// `HEAD`
    public static let head = HTTPMethod("HEAD")
    /// `POST`
    public static let post = HTTPMethod("POST")
    /// `PUT`
    public static let put = HTTPMethod("PUT")
    /// `PATCH`
    public static let patch = HTTPMethod("PATCH")
    /// `DELETE`
    public static let delete = HTTPMethod("DELETE")
    /// `OPTIONS`
    public static let options = HTTPMethod("OPTIONS")
    /// `TRACE`
    public static let trace = HTTPMethod("TRACE")
}
