import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPResponse {
    /// The status and header fields of a Foundation response, and its body's length when the
    /// head tells it: not for a body that was sent compressed (the client decodes it, so
    /// `Content-Length` counts other bytes). One pass over the fields.
    static func converted(_ response: HTTPURLResponse) -> (HTTPResponse, HTTPBody.Length) {
        var encoded = false
        var headerFields = HTTPFields()
        // Foundation keeps the fields as `[AnyHashable: Any]` holding strings: cast, not
        // interpolate (`"\(…)"` on `Any` looks up how to describe each value).
        for (key, value) in response.allHeaderFields {
            guard let raw = key.base as? String, let name = HTTPField.Name(raw) else { continue }
            encoded = encoded || name == .contentEncoding
            headerFields.append(HTTPField(name: name, value: value as? String ?? "\(value)"))
        }
        let length = response.expectedContentLength
        let head = HTTPResponse(status: .init(code: response.statusCode), headerFields: headerFields)
        return (head, !encoded && length >= 0 ? .known(length) : .unknown)
    }

    /// A response with `status` and the fields named (a name HTTP does not allow is left out).
    init(status: Int, fields: some Sequence<(String, String)>) {
        var headerFields = HTTPFields()
        for (name, value) in fields {
            if let name = HTTPField.Name(name) { headerFields.append(HTTPField(name: name, value: value)) }
        }
        self.init(status: .init(code: status), headerFields: headerFields)
    }
}
