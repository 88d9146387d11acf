/// An endpoint that can tell from a status alone that it takes a streamed answer as it is.
/// For such a status, ``Endpoint/validate(_:response:data:)`` is not asked about the head, so
/// the stream needs no `HTTPURLResponse` (see ``ResponseHead``). SPI for EndpointKit's
/// packages: a generated OpenAPI operation takes every documented status.
@_spi(Transport) public protocol StatusAccepting: Sendable {
    /// Whether an answer with `statusCode` is taken whatever its fields and body; when not,
    /// the endpoint's `validate` decides, as for any endpoint.
    func accepts(statusCode: Int) -> Bool
}

extension StatusAccepting {
    /// Whether `value` is of this type and takes `statusCode`.
    static func accepts(_ value: some Any, statusCode: Int) -> Bool {
        (value as? Self)?.accepts(statusCode: statusCode) == true
    }
}
