import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``Endpoint`` whose ``Endpoint/Content`` is decoded from a JSON body with no code of its own.
///
/// ```swift
/// struct GetBook: JSONEndpoint {
///     typealias Content = Book
///     let id: Int
///     func makeRequest() throws -> URLRequest { try URLRequest(.get, "books/\(id)") }
/// }
/// ```
/// Override ``decoder`` to change date or key strategies.
public protocol JSONEndpoint: Endpoint where Content: Decodable {
    /// The decoder used for the body; a plain `JSONDecoder()` unless overridden.
    var decoder: JSONDecoder { get }
}

extension JSONEndpoint {
    /// A plain `JSONDecoder()`.
    public var decoder: JSONDecoder { JSONDecoder() }

    /// Decodes ``Endpoint/Content`` from the body with ``decoder``; an empty body is `nil` when
    /// `Content` is optional.
    public func content(from response: URLResponse?, with body: Data) throws -> Content {
        try decoder.decodeBody(Content.self, from: body)
    }
}
