import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A call described inline, without a named ``Endpoint`` type: a method, a path, query items,
/// headers and an optional JSON body, answered with JSON decoded as `Content` (or nothing, for
/// `Request<Void>`). It runs the whole pipeline like any endpoint: adapters, retries, cache,
/// monitors and overload defences.
///
/// ```swift
/// let books = try await client.request(.get("books", as: [Book].self))
/// try await client.request(.post("books", body: NewBook(title: "Dune")))
/// ```
///
/// Make one with the static functions on ``Endpoint`` (``Endpoint/get(_:query:headers:as:)``,
/// `post`, `put`, `patch`, `delete`, ``Endpoint/call(_:_:query:headers:body:as:)``). Name an
/// ``Endpoint`` type instead when a call is made from several places, or decodes something
/// other than JSON.
public struct Request<Content: Sendable>: Endpoint {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The path, relative to the client's base URL unless absolute (as in
    /// `URLRequest.init(_:_:query:headers:)`).
    public var path: String
    /// Query items, percent-encoded as written.
    public var query: [URLQueryItem]
    /// Header fields set on the request.
    public var headers: [String: String]
    /// The value sent as a JSON body, if any.
    public var body: (any Encodable & Sendable)?
    /// Encodes ``body``; a plain `JSONEncoder()` unless replaced.
    public var encoder = JSONEncoder()
    /// Decodes the answer's body; a plain `JSONDecoder()` unless replaced.
    public var decoder = JSONDecoder()
    /// The longest one attempt may take, in seconds; `nil` keeps the client's.
    public var timeout: TimeInterval?
    /// How failed attempts are retried; `nil` keeps the client's.
    public var retryPolicy: RetryPolicy?
    /// How the client's ``HTTPCache`` treats this call; `nil` keeps its default.
    public var cachePolicy: CachePolicy?
    /// Whether this call is hedged; `nil` keeps the client's policy.
    public var hedging: HedgingPolicy?
    /// The call's name in logs, metrics and traces; `nil` names it after `Request`.
    public var callName: String?
    /// Checks the answer instead of the default validation (which
    /// refuses a non-2xx status), for an API whose error bodies have their own type. Without
    /// one, a request reads only the status of the answer's head, and `AsyncHTTPClientClient`
    /// builds no Foundation response for its call.
    public var validation: (@Sendable (URLRequest?, HTTPURLResponse, Data?) throws -> Void)?

    private let decode: @Sendable (JSONDecoder, Data) throws -> Content

    /// Creates a request whose answer `decode` turns into `Content`.
    init(
        _ method: HTTPMethod, _ path: String, query: [URLQueryItem], headers: [String: String],
        body: (any Encodable & Sendable)?, decode: @escaping @Sendable (JSONDecoder, Data) throws -> Content
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.decode = decode
    }

    /// Builds the `URLRequest`, with `Content-Type: application/json` when there is a body.
    ///
    /// - Throws: ``EndpointKitError/invalidURL(_:)`` for a path no URL can be made of, or the
    ///   encoder's error when ``body`` cannot be encoded.
    public func makeRequest() throws -> URLRequest {
        var request = try URLRequest(method, path, query: query, headers: headers)
        if let body {
            request.setBody(try encoder.encode(body), contentType: "application/json")
        }
        return request
    }

    /// Checks the answer with ``validation``, or refuses a non-2xx status when there is none.
    public func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        if let validation {
            try validation(request, response, data)
        } else {
            try defaultValidation(request, response: response, data: data)
        }
    }

    /// This request, checked by `validation` instead of the default (see ``validation``).
    public func validating(_ validation: @escaping @Sendable (URLRequest?, HTTPURLResponse, Data?) throws -> Void) -> Self {
        var copy = self
        copy.validation = validation
        return copy
    }

    /// Decodes the body as `Content` with ``decoder`` (nothing is read for `Request<Void>`).
    public func content(from response: URLResponse?, with body: Data) throws -> Content {
        try decode(decoder, body)
    }
}
