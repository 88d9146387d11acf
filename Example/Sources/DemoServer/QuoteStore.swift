import BookKit

/// The demo server's quotes, served in the shape of the public Quotable API.
struct QuoteStore: Sendable {
    static let quotes: [Quote] = [
        ("The unexamined life is not worth living.", "Socrates", ["wisdom", "philosophy"]),
        ("Know thyself.", "Socrates", ["wisdom"]),
        ("We are what we repeatedly do.", "Will Durant", ["habit", "wisdom"]),
        ("The only way to do great work is to love what you do.", "Steve Jobs", ["work", "love"]),
        ("Simplicity is prerequisite for reliability.", "Edsger W. Dijkstra", ["technology", "simplicity"]),
        ("Premature optimization is the root of all evil.", "Donald Knuth", ["technology"]),
        ("Talk is cheap. Show me the code.", "Linus Torvalds", ["technology", "work"]),
        ("Where there is love there is life.", "Mahatma Gandhi", ["love", "life"]),
        ("Life is what happens when you're busy making other plans.", "John Lennon", ["life"]),
        ("It always seems impossible until it's done.", "Nelson Mandela", ["inspirational"]),
    ].enumerated().map { index, item in
        Quote(id: "q\(index + 1)", content: item.0, author: item.1, authorSlug: slug(item.1), tags: item.2)
    }

    static var authors: [Author] {
        var counts: [String: Int] = [:]
        for quote in quotes { counts[quote.author, default: 0] += 1 }
        return counts.keys.sorted().enumerated().map { index, name in
            Author(id: "a\(index + 1)", name: name, slug: slug(name), quoteCount: counts[name] ?? 0)
        }
    }

    static func slug(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
    }

    static func page<Item>(_ items: [Item], page: Int, limit: Int) -> Paged<Item> {
        let start = (page - 1) * limit
        let slice = start < items.count ? Array(items[start..<min(items.count, start + limit)]) : []
        return Paged(results: slice, page: page, totalPages: (items.count + limit - 1) / limit, totalCount: items.count)
    }
}
