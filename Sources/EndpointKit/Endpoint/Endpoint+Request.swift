import Foundation

// The static functions that make a ``Request`` where an endpoint is expected, so a call reads
// `client.request(.get("books", as: [Book].self))`. `Content` comes from `as:` or from the
// type the result is assigned to; with neither (or for `Request<Void>`), the answer's body is
// not decoded.

extension Endpoint {
    /// A `method` call to `path`, with `body` (if any) sent as JSON, whose JSON answer is
    /// decoded as `Content`.
    public static func call<Content: Decodable & Sendable>(
        _ method: HTTPMethod, _ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:],
        body: (any Encodable & Sendable)? = nil, as type: Content.Type = Content.self
    ) -> Self where Self == Request<Content> {
        Request(method, path, query: query, headers: headers, body: body) { decoder, data in
            try decoder.decodeBody(Content.self, from: data)
        }
    }

    /// A `GET` of `path` whose JSON answer is decoded as `Content`.
    public static func get<Content: Decodable & Sendable>(
        _ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:], as type: Content.Type = Content.self
    ) -> Self where Self == Request<Content> {
        call(.get, path, query: query, headers: headers, as: type)
    }

    /// A `POST` of `body` (if any) as JSON to `path`, whose JSON answer is decoded as `Content`.
    public static func post<Content: Decodable & Sendable>(
        _ path: String, body: (any Encodable & Sendable)? = nil, query: [URLQueryItem] = [],
        headers: [String: String] = [:], as type: Content.Type = Content.self
    ) -> Self where Self == Request<Content> {
        call(.post, path, query: query, headers: headers, body: body, as: type)
    }

    /// A `PUT` of `body` (if any) as JSON to `path`, whose JSON answer is decoded as `Content`.
    public static func put<Content: Decodable & Sendable>(
        _ path: String, body: (any Encodable & Sendable)? = nil, query: [URLQueryItem] = [],
        headers: [String: String] = [:], as type: Content.Type = Content.self
    ) -> Self where Self == Request<Content> {
        call(.put, path, query: query, headers: headers, body: body, as: type)
    }

    /// A `PATCH` of `body` (if any) as JSON to `path`, whose JSON answer is decoded as `Content`.
    public static func patch<Content: Decodable & Sendable>(
        _ path: String, body: (any Encodable & Sendable)? = nil, query: [URLQueryItem] = [],
        headers: [String: String] = [:], as type: Content.Type = Content.self
    ) -> Self where Self == Request<Content> {
        call(.patch, path, query: query, headers: headers, body: body, as: type)
    }

    /// A `DELETE` of `path` whose JSON answer is decoded as `Content`.
    public static func delete<Content: Decodable & Sendable>(
        _ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:], as type: Content.Type = Content.self
    ) -> Self where Self == Request<Content> {
        call(.delete, path, query: query, headers: headers, as: type)
    }
}

extension Endpoint where Self == Request<Void> {
    /// A `method` call to `path`, with `body` (if any) sent as JSON, whose answer's body is not
    /// read: only its status counts.
    public static func call(
        _ method: HTTPMethod, _ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:],
        body: (any Encodable & Sendable)? = nil
    ) -> Self {
        Request(method, path, query: query, headers: headers, body: body) { _, _ in }
    }

    /// A `POST` of `body` (if any) as JSON to `path`, whose answer's body is not read.
    public static func post(
        _ path: String, body: (any Encodable & Sendable)? = nil, query: [URLQueryItem] = [], headers: [String: String] = [:]
    ) -> Self {
        call(.post, path, query: query, headers: headers, body: body)
    }

    /// A `PUT` of `body` (if any) as JSON to `path`, whose answer's body is not read.
    public static func put(
        _ path: String, body: (any Encodable & Sendable)? = nil, query: [URLQueryItem] = [], headers: [String: String] = [:]
    ) -> Self {
        call(.put, path, query: query, headers: headers, body: body)
    }

    /// A `PATCH` of `body` (if any) as JSON to `path`, whose answer's body is not read.
    public static func patch(
        _ path: String, body: (any Encodable & Sendable)? = nil, query: [URLQueryItem] = [], headers: [String: String] = [:]
    ) -> Self {
        call(.patch, path, query: query, headers: headers, body: body)
    }

    /// A `DELETE` of `path` whose answer's body is not read.
    public static func delete(_ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:]) -> Self {
        call(.delete, path, query: query, headers: headers)
    }
}
