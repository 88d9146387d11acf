import Foundation

extension JSONDecoder {
    /// Decodes `type` from a response's JSON body. An empty body (a `204 No Content`, or a `200`
    /// with nothing) is `nil` when `type` is optional, as an API that answers "none" with no
    /// body means; for any other type it fails as invalid JSON.
    func decodeBody<Content: Decodable>(_ type: Content.Type, from body: Data) throws -> Content {
        if body.isEmpty, let absent = (Content.self as? any AbsentValue.Type)?.absent as? Content { return absent }
        return try decode(type, from: body)
    }
}
