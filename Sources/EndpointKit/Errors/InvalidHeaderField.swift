import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request header field that cannot be sent: its name is not an HTTP token, or its value
/// holds a line break or NUL (RFC 9110, 5.1 and 5.5). Sent, such a field would end where the
/// break is and start another field that whoever wrote the value chose (header injection);
/// Foundation instead drops a value with a line break without a word, so the request would go
/// out without it. The call is refused before anything is sent, as the `underlying` error of
/// ``EndpointKitError/invalidRequest(endpoint:underlying:)`` (or of
/// ``EndpointKitError/requestAdapterFailed(adapter:underlying:)`` for an adapter's field). The
/// value is never part of the description: it may be a credential.
public struct InvalidHeaderField: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field's name, as given.
    public let name: String
    /// What is wrong with it, in words.
    public let reason: String

    /// A field refused for `reason`.
    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }

    /// Names the field (escaped, so that a line break in it shows) and the reason.
    public var description: String {
        "header field \(name.debugDescription) cannot be sent: \(reason)"
    }

    /// Why `name` or `value` cannot be sent, or `nil` when both can.
    static func problem(name: String, value: String) -> InvalidHeaderField? {
        if let problem = problem(name: name) { return problem }
        guard value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else { return nil }
        return InvalidHeaderField(name: name, reason: "its value holds a line break or NUL")
    }

    /// Why `name` is not an HTTP token (RFC 9110, 5.6.2: a letter, digit or one of
    /// ``!#$%&'*+-.^_`|~``, at least one), or `nil` when it is.
    static func problem(name: String) -> InvalidHeaderField? {
        guard !HTTPToken.isToken(name) else { return nil }
        return InvalidHeaderField(name: name, reason: "a name is " + HTTPToken.rule)
    }

    /// Throws ``EndpointKitError/invalidRequest(endpoint:underlying:)`` around the field's
    /// problem when one of `request`'s field names is not an HTTP token, before a transport
    /// sends it: libcurl would send a name with a line break as it is. (Foundation drops a
    /// value with one itself.)
    static func checkNames(of request: URLRequest) throws {
        for name in (request.allHTTPHeaderFields ?? [:]).keys { try checkSent(name: name) }
    }

    /// ``checkNames(of:)`` for one name, for a transport that goes through the fields itself.
    /// SPI for EndpointKit's client packages.
    @_spi(Transport) public static func checkSent(name: String) throws {
        guard let problem = problem(name: name) else { return }
        throw EndpointKitError.invalidRequest(endpoint: "URLRequest.allHTTPHeaderFields", underlying: problem)
    }
}
