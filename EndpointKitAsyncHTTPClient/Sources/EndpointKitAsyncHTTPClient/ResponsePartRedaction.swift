import Logging

/// The log handler of the logger a call gives AsyncHTTPClient: each response part it logs at
/// `.trace` (`ahc-http-part`) is written as its kind alone (`head`, `body`, `end`), not with
/// the head's fields (a `Set-Cookie` among them) or the body's first and last bytes; every
/// other line as it comes. EndpointKit's promise that no secret is logged holds for the lines
/// it has AsyncHTTPClient write too.
struct ResponsePartRedaction: LogHandler {
    /// The key of AsyncHTTPClient's response part in a line's metadata.
    static let partKey = "ahc-http-part"

    /// The handler of the logger given to the client, which writes what is left.
    var base: any LogHandler

    /// `logger`, with its response parts written by kind only.
    static func wrapping(_ logger: Logger) -> Logger {
        Logger(label: logger.label) { _ in ResponsePartRedaction(base: logger.handler) }
    }

    func log(event: LogEvent) {
        var event = event
        if let part = event.metadata?[Self.partKey] {
            event.metadata?[Self.partKey] = .string(String("\(part)".prefix { $0.isLetter }))
        }
        base.log(event: event)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }
}
