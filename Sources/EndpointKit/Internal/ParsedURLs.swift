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

    /// The URL kept for `string`, if any.
    public func url(for string: String) -> URL? {
        urls.withLock { $0[string] }
    }

    /// Keeps `url` (when there is one) as parsed from `string`, and returns it.
    public func keep(_ url: URL?, for string: String) -> URL? {
        guard let url else { return nil }
        urls.withLock { urls in
            if urls.count >= Self.limit { urls.removeAll(keepingCapacity: true) }
            urls[string] = url
        }
        return url
    }
}
