import BookKit

/// The demo server's books, in memory.
actor BookStore {
    private var books: [Int: Book] = [:]
    private var nextID = 1

    init(seed: [NewBook]) {
        for new in seed {
            books[nextID] = Book(id: nextID, title: new.title, author: new.author, year: new.year)
            nextID += 1
        }
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

    func remove(_ id: Int) -> Bool { books.removeValue(forKey: id) != nil }
}
