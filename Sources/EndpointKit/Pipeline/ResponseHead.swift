import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response head as a transport received it. A transport that does not speak Foundation
/// gives its status, and its fields or a way to build from them; the `HTTPURLResponse` that the
/// ``Endpoint`` API hands around is then built the first time it is asked for. A call that needs
/// only the status (a ``Request`` without a validation of its own) or the fields (a generated
/// OpenAPI call) never builds one: Foundation on Linux spends about 1.2 µs a field building one,
/// more than the rest of a small call. SPI for EndpointKit's client packages.
@_spi(Transport) public struct ResponseHead: Sendable {
    /// The status code.
    public let statusCode: Int
    private let source: Source

    private enum Source: Sendable {
        case response(HTTPURLResponse)
        case deferred(Deferred)
    }

    /// A Foundation response to build once, when first asked for (the only part behind the
    /// lock), and the fields it is built from when they came as a list.
    private struct Deferred: Sendable {
        let fields: [(name: String, value: String)]?
        let build: @Sendable () -> HTTPURLResponse
        let built: Locked<HTTPURLResponse?>
    }

    /// The head of a Foundation response.
    public init(_ response: HTTPURLResponse) {
        statusCode = response.statusCode
        source = .response(response)
    }

    /// The head of the response to `url`: its status, its HTTP version (`HTTP/1.1`) and its
    /// header fields in the order they came, a repeated field once for each time.
    public init(url: URL, statusCode: Int, version: String, fields: [(name: String, value: String)]) {
        self.statusCode = statusCode
        source = .deferred(
            Deferred(
                fields: fields, build: { Self.response(url: url, statusCode: statusCode, version: version, fields: fields) },
                built: Locked(nil)))
    }

    /// The head of a response that `build` makes, once, when first asked for: a transport
    /// reads its own fields there, where their type is known, without copying them first.
    public init(statusCode: Int, build: @escaping @Sendable () -> HTTPURLResponse) {
        self.statusCode = statusCode
        source = .deferred(Deferred(fields: nil, build: build, built: Locked(nil)))
    }

    /// The head as a Foundation response, built once, when first asked for.
    public var response: HTTPURLResponse {
        switch source {
        case .response(let response):
            return response
        case .deferred(let deferred):
            return deferred.built.withLock { built in
                if let response = built { return response }
                let response = deferred.build()
                built = response
                return response
            }
        }
    }

    /// Calls `count` with how many fields there are (room to reserve before copying them), then
    /// `body` with each header field (a Foundation response gives repeated fields joined). One
    /// pass: a Foundation response's fields are read out once for both.
    public func forEachField(counting count: (Int) -> Void = { _ in }, _ body: (_ name: String, _ value: String) -> Void) {
        if case .deferred(let deferred) = source, let fields = deferred.fields {
            count(fields.count)
            for (name, value) in fields { body(name, value) }
            return
        }
        // Foundation keeps the fields as `[AnyHashable: Any]` holding strings: cast, not
        // interpolate (`"\(…)"` on `Any` looks up how to describe each value).
        let fields = response.allHeaderFields
        count(fields.count)
        for (key, value) in fields {
            guard let name = key.base as? String else { continue }
            body(name, value as? String ?? "\(value)")
        }
    }

    /// A Foundation response with these parts; repeated fields are joined with commas, as
    /// Foundation does. Inlinable, so that a transport's own header type is iterated directly.
    @inlinable
    public static func response(
        url: URL, statusCode: Int, version: String, fields: some Collection<(name: String, value: String)>
    ) -> HTTPURLResponse {
        var joined = [String: String](minimumCapacity: fields.count)
        for (name, value) in fields {
            // One lookup for a name seen once, the common case.
            if let first = joined.updateValue(value, forKey: name) { joined[name] = first + ", " + value }
        }
        if let response = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: version, headerFields: joined) {
            return response
        }
        // Darwin documents that it may refuse, without saying when; Foundation on Linux never does.
        #if canImport(FoundationNetworking)
            guard let bare = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: nil, headerFields: nil) else {
                preconditionFailure("Foundation refused to make an HTTPURLResponse")
            }
            return bare
        #else
            return HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: nil, headerFields: nil)
                ?? HTTPURLResponse(url: url, mimeType: nil, expectedContentLength: -1, textEncodingName: nil)
        #endif
    }
}
