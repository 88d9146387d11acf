import ArgumentParser
import BookKit
import Foundation

// The book calls, one small command each (kept together: each is a few lines).

/// `book-demo list`
struct ListBooks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List one page of books.")
    @OptionGroup var options: Options
    @Option(help: "The page, from 1.") var page = 1
    @Option(help: "Books per page, 1…100.") var perPage = 20

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page must be 1 or more") }
        guard (1...100).contains(perPage) else { throw ValidationError("--per-page must be between 1 and 100") }
    }

    func run() async throws {
        try await options.run { session in
            let books = try await session.books.fetchBooks(page: page, perPage: perPage)
            session.output.print(books) { books.isEmpty ? "no books on page \(page)" : books.map(describe).joined(separator: "\n") }
        }
    }
}

/// `book-demo get ID`
struct GetBook: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "get", abstract: "Show one book.")
    @OptionGroup var options: Options
    @Argument(help: "The book's id.") var id: Int

    func run() async throws {
        try await options.run { session in
            let book = try await session.books.book(id: id)
            session.output.print(book) { describe(book) }
        }
    }
}

/// `book-demo create --title … --author …`
struct CreateBook: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a book.")
    @OptionGroup var options: Options
    @OptionGroup var fields: BookFields

    func run() async throws {
        try await options.run { session in
            let book = try await session.books.create(fields.newBook)
            session.output.print(book) { "created \(describe(book))" }
        }
    }
}

/// `book-demo update ID --title … --author …`
struct UpdateBook: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "update", abstract: "Replace a book's fields.")
    @OptionGroup var options: Options
    @Argument(help: "The book's id.") var id: Int
    @OptionGroup var fields: BookFields

    func run() async throws {
        try await options.run { session in
            let book = try await session.books.update(id: id, with: fields.newBook)
            session.output.print(book) { "updated \(describe(book))" }
        }
    }
}

/// `book-demo delete ID`
struct DeleteBook: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a book.")
    @OptionGroup var options: Options
    @Argument(help: "The book's id.") var id: Int

    func run() async throws {
        try await options.run { session in
            try await session.books.delete(id: id)
            session.output.print(["deleted": id]) { "deleted book \(id)" }
        }
    }
}

/// The fields of a book, as options.
struct BookFields: ParsableArguments {
    @Option(help: "The title.") var title: String
    @Option(help: "The author.") var author: String
    @Option(help: "The year of first publication.") var year: Int?

    func validate() throws {
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--title must not be empty") }
    }

    var newBook: NewBook { NewBook(title: title, author: author, year: year) }
}

/// `#1 Dune — Frank Herbert (1965)`
func describe(_ book: Book) -> String {
    "#\(book.id) \(book.title) — \(book.author)\(book.year.map { " (\($0))" } ?? "")"
}
