@_spi(Transport) import EndpointKit
import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPResponse {
    /// The status and header fields of a response head, and its body's length when the head
    /// tells it: not for a body that was sent compressed (the client decodes it, so
    /// `Content-Length` counts other bytes). One pass over the fields, and no Foundation
    /// response is built for a head that came without one, and the fields are stored once, not
    /// grown field by field.
    static func converted(_ head: ResponseHead) -> (HTTPResponse, HTTPBody.Length) {
        var encoded = false
        var length: Int64?
        var headerFields = HTTPFields()
        head.forEachField(counting: { headerFields.reserveCapacity($0) }) { raw, value in
            guard let name = HTTPField.Name(raw) else { return }
            if name == .contentEncoding { encoded = true }
            if name == .contentLength { length = Int64(value) }
            headerFields.append(HTTPField(name: name, value: value))
        }
        let response = HTTPResponse(status: .init(code: head.statusCode), headerFields: headerFields)
        guard !encoded, let length, length >= 0 else { return (response, .unknown) }
        return (response, .known(length))
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
