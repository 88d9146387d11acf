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
}
