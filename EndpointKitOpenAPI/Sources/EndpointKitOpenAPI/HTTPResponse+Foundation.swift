import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPResponse {
    /// The status and header fields of a Foundation response.
    init(_ response: HTTPURLResponse) {
        // Foundation keeps the fields as `[AnyHashable: Any]` holding strings: cast, not
        // interpolate (`"\(…)"` on `Any` looks up how to describe each value).
        self.init(
            status: response.statusCode,
            fields: response.allHeaderFields.lazy.compactMap { field in
                guard let name = field.key.base as? String else { return nil }
                return (name, field.value as? String ?? "\(field.value)")
            })
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
