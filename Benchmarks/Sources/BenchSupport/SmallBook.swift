import Foundation
import NIOCore
import NIOHTTP1

/// The small JSON the benchmark's servers answer at `json` (`Scripts/bench-nginx.sh`), decoded
/// as a caller would.
public struct SmallBook: Decodable, Sendable {
    /// The book's ID.
    public let id: Int
    /// Its title.
    public let title: String
    /// Its author.
    public let author: String
    /// Its year.
    public let year: Int
    /// Its tags.
    public let tags: [String]

    /// The book in `body`, as a caller of raw AsyncHTTPClient reads it: a status outside 2xx
    /// fails, and the body is decoded with a `JSONDecoder` (no Foundation response is made).
    public static func decoded(_ status: HTTPResponseStatus, _ body: ByteBuffer) throws -> SmallBook {
        guard (200..<300).contains(status.code) else { throw URLError(.badServerResponse) }
        return try JSONDecoder().decode(SmallBook.self, from: Data(body.readableBytesView))
    }
}
