import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPResponse {
    /// The status and header fields of a Foundation response.
    init(_ response: HTTPURLResponse) {
        var fields = HTTPFields()
        for (name, value) in response.allHeaderFields {
            guard let text = name as? String, let name = HTTPField.Name(text) else { continue }
            fields.append(HTTPField(name: name, value: "\(value)"))
        }
        self.init(status: .init(code: response.statusCode), headerFields: fields)
    }
}
