import Foundation

/// A quote, in the shape of the public Quotable API (`_id`, `content`, `author`, `tags`).
public struct Quote: Codable, Sendable, Equatable, Identifiable {
    /// The quote's identifier.
    public let id: String
    /// The quoted text.
    public let content: String
    /// Who said or wrote it.
    public let author: String
    /// The author's identifier, for searching.
    public let authorSlug: String
    /// Topics, such as `wisdom`.
    public let tags: [String]

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case content, author, authorSlug, tags
    }

    /// Creates a quote.
    public init(id: String, content: String, author: String, authorSlug: String, tags: [String]) {
        self.id = id
        self.content = content
        self.author = author
        self.authorSlug = authorSlug
        self.tags = tags
    }
}

/// An author, as the Quotable API's author search returns it.
public struct Author: Codable, Sendable, Equatable, Identifiable {
    /// The author's identifier.
    public let id: String
    /// The author's name.
    public let name: String
    /// The name as a URL-safe identifier.
    public let slug: String
    /// How many quotes the API has by this author.
    public let quoteCount: Int

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case name, slug, quoteCount
    }

    /// Creates an author.
    public init(id: String, name: String, slug: String, quoteCount: Int) {
        self.id = id
        self.name = name
        self.slug = slug
        self.quoteCount = quoteCount
    }
}

/// One page of a Quotable list: the items sit in `results`, next to the paging fields.
public struct Paged<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// The items on this page.
    public let results: [Item]
    /// This page's number, from 1.
    public let page: Int
    /// How many pages there are.
    public let totalPages: Int
    /// How many items there are on all pages.
    public let totalCount: Int

    /// Creates a page.
    public init(results: [Item], page: Int, totalPages: Int, totalCount: Int) {
        self.results = results
        self.page = page
        self.totalPages = totalPages
        self.totalCount = totalCount
    }
}
