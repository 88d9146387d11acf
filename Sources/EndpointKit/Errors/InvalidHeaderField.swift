import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request header field that cannot be sent: its name is not an HTTP token, or its value
/// holds a line break, NUL or another control character but a tab (RFC 9110, 5.1 and 5.5:
/// AsyncHTTPClient refuses the others, libcurl sends them). Sent, such a field would end where the
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
        guard let control = value.utf8.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        let reason =
            [0x0D, 0x0A, 0x00].contains(control)
            ? "its value holds a line break or NUL" : "its value holds a control character (\(String(format: "0x%02X", control)))"
        return InvalidHeaderField(name: name, reason: reason)
    }

    /// Why `name` is not an HTTP token (RFC 9110, 5.6.2: a letter, digit or one of
    /// ``!#$%&'*+-.^_`|~``, at least one), or `nil` when it is.
    static func problem(name: String) -> InvalidHeaderField? {
        guard !HTTPToken.isToken(name) else { return nil }
        return InvalidHeaderField(name: name, reason: "a name is " + HTTPToken.rule)
    }

    /// Throws ``EndpointKitError/invalidRequest(endpoint:underlying:)`` around the field's
    /// problem when one of `request`'s fields cannot be sent, before a transport sends it:
    /// libcurl would send a name with a line break, or a value with another control character
    /// (DEL, say), as it is. (Foundation drops a value with a line break itself.)
    /// SPI for EndpointKit's client packages.
    @_spi(Transport) public static func checkFields(of request: URLRequest) throws {
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            guard let problem = problem(name: name, value: value) else { continue }
            throw EndpointKitError.invalidRequest(endpoint: "URLRequest.allHTTPHeaderFields", underlying: problem)
        }
    }
}
