import BookKit
import Foundation

/// The demo server's books, in memory.
actor BookStore {
    private var books: [Int: Book] = [:]
    private var nextID = 1
    private var covers: [Int: Cover] = [:]

    struct Cover: Sendable {
        let contentType: String
        let bytes: Data
    }

    init(seed: [NewBook]) {
        for new in seed {
            books[nextID] = Book(id: nextID, title: new.title, author: new.author, year: new.year)
            nextID += 1
        }
        // Book 1 has a cover, so `download-cover 1` works on a fresh demo server.
        covers[1] = Cover(contentType: "image/png", bytes: Data((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
    }

    func page(_ page: Int, perPage: Int) -> [Book] {
        let sorted = books.values.sorted { $0.id < $1.id }
        let start = max(0, (page - 1) * perPage)
        guard start < sorted.count else { return [] }
        return Array(sorted[start..<min(sorted.count, start + perPage)])
    }

    func book(_ id: Int) -> Book? { books[id] }

    func add(_ new: NewBook) -> Book {
        let book = Book(id: nextID, title: new.title, author: new.author, year: new.year)
        books[book.id] = book
        nextID += 1
        return book
    }

    func update(_ id: Int, with new: NewBook) -> Book? {
        guard books[id] != nil else { return nil }
        let book = Book(id: id, title: new.title, author: new.author, year: new.year)
        books[id] = book
        return book
    }

    func remove(_ id: Int) -> Bool {
        covers[id] = nil
        return books.removeValue(forKey: id) != nil
    }

    func setCover(_ id: Int, _ cover: Cover) -> Bool {
        guard books[id] != nil else { return false }
        covers[id] = cover
        return true
    }

    func cover(_ id: Int) -> Cover? { covers[id] }
}
