import Foundation

/// URLs parsed from strings, kept by the string they were parsed from (at most ``limit``;
/// emptied when full). On Linux, parsing a URL is most of what building or resolving a
/// request's URL costs (1,500 instructions for a four-letter path, about 5,000 for a whole
/// URL), and a client asks for the same few paths again and again. A handle: copies share
/// what they keep. SPI for EndpointKit's client packages.
@_spi(Transport) public struct ParsedURLs: Sendable {
    private let urls = Locked<[String: URL]>([:])
    /// The most URLs kept.
    public static let limit = 64

    /// An empty memo.
    public init() {}

    /// The URL parsed from `string`: the one kept for it, or else `parse`'s, kept unless it
    /// is `nil`. `parse` runs outside the lock.
    public func url(for string: String, parsing parse: () -> URL?) -> URL? {
        if let url = urls.withLock({ $0[string] }) { return url }
        guard let url = parse() else { return nil }
        urls.withLock { urls in
            if urls.count >= Self.limit { urls.removeAll(keepingCapacity: true) }
            urls[string] = url
        }
        return url
    }
}
