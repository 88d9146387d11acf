import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response head as a transport received it. A transport that does not speak Foundation
/// gives its status and fields; the `HTTPURLResponse` that the ``Endpoint`` API hands around is
/// then built the first time it is asked for. A call that needs only the status and the fields
/// never builds one: a generated OpenAPI call, say (Foundation on Linux spends about 1.2 µs a
/// field building one). SPI for EndpointKit's client packages.
@_spi(Transport) public struct ResponseHead: Sendable {
    /// The status code.
    public let statusCode: Int
    private let source: Source

    private enum Source: Sendable {
        case response(HTTPURLResponse)
        case fields(Received)
    }

    /// What a transport received, and the response built from it once asked for (the only
    /// part behind the lock).
    private struct Received: Sendable {
        let url: URL
        let version: String
        let fields: [(name: String, value: String)]
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
        source = .fields(Received(url: url, version: version, fields: fields, built: Locked(nil)))
    }

    /// The head as a Foundation response, built once, when first asked for.
    public var response: HTTPURLResponse {
        switch source {
        case .response(let response):
            return response
        case .fields(let received):
            return received.built.withLock { built in
                if let response = built { return response }
                let response = Self.response(
                    url: received.url, statusCode: statusCode, version: received.version, fields: received.fields)
                built = response
                return response
            }
        }
    }

    /// Calls `count` with how many fields there are (room to reserve before copying them), then
    /// `body` with each header field (a Foundation response gives repeated fields joined). One
    /// pass: a Foundation response's fields are read out once for both.
    public func forEachField(counting count: (Int) -> Void = { _ in }, _ body: (_ name: String, _ value: String) -> Void) {
        switch source {
        case .response(let response):
            // Foundation keeps the fields as `[AnyHashable: Any]` holding strings: cast, not
            // interpolate (`"\(…)"` on `Any` looks up how to describe each value).
            let fields = response.allHeaderFields
            count(fields.count)
            for (key, value) in fields {
                guard let name = key.base as? String else { continue }
                body(name, value as? String ?? "\(value)")
            }
        case .fields(let received):
            count(received.fields.count)
            for (name, value) in received.fields { body(name, value) }
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
