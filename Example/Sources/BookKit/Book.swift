import Foundation

/// A book as the book API returns it.
public struct Book: Codable, Sendable, Equatable, Identifiable {
    /// The server-assigned identifier.
    public let id: Int
    /// The title.
    public var title: String
    /// The author's name.
    public var author: String
    /// The year of first publication.
    public var year: Int?

    /// Creates a book.
    public init(id: Int, title: String, author: String, year: Int? = nil) {
        self.id = id
        self.title = title
        self.author = author
        self.year = year
    }
}

/// What a client sends to create a book.
public struct NewBook: Codable, Sendable, Equatable {
    /// The title.
    public var title: String
    /// The author's name.
    public var author: String
    /// The year of first publication.
    public var year: Int?

    /// Creates the payload for a new book.
    public init(title: String, author: String, year: Int? = nil) {
        self.title = title
        self.author = author
        self.year = year
    }
}
