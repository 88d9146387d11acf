import ArgumentParser
import BookKit
import Foundation

/// `book-demo` (or `book-demo tour`): every call once, with both APIs, including the errors.
struct Tour: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Take a tour of every call (the default).")
    @OptionGroup var options: Options
    @Option(help: "At the end, follow the live book feed for this many books.") var follow = 3

    func run() async throws {
        try await options.run { session in
            let books = session.books
            let viaCompletion = try await withCheckedThrowingContinuation { continuation in
                books.fetchBooks { continuation.resume(with: $0) }
            }
            print("\nfetchBooks(completion:) → \(viaCompletion.count) books")
            for book in try await books.fetchBooks() { print("  \(describe(book))") }

            let created = try await books.create(NewBook(title: "Neuromancer", author: "William Gibson", year: 1984))
            print("\ncreate → \(describe(created))")
            let updated = try await books.update(id: created.id, with: NewBook(title: "Count Zero", author: "William Gibson", year: 1986))
            print("update(id: \(created.id)) → \(describe(updated))")
            try await coverRoundTrip(books, id: created.id)
            try await books.delete(id: created.id)
            print("delete(id: \(created.id)) → done")
            do {
                _ = try await books.book(id: created.id)
            } catch {
                print("book(id: \(created.id)) after delete → error: \(Output.message(for: error))")
            }
            do {
                _ = try await books.create(NewBook(title: " ", author: "Nobody"))
            } catch {
                print("create(empty title) → error: \(Output.message(for: error))")
            }

            let quote = try await session.quotes.randomQuote(tag: "wisdom")
            print("\nrandomQuote(tag: wisdom) → \(describe(quote))")
            let authors = try await session.quotes.searchAuthors("so")
            print("searchAuthors(\"so\") → \(authors.results.map(\.name).joined(separator: ", "))")

            guard follow > 0 else { return }
            print("\nfollowing the live feed for \(follow) books:")
            var seen = 0
            for try await book in books.followBooks() {
                print("  new: \(describe(book))")
                seen += 1
                if seen == follow { break }
            }
        }
    }

    /// Uploads a generated 1 MB "image" as the cover, then downloads it again and compares.
    private func coverRoundTrip(_ books: any BookService, id: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("book-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = directory.appendingPathComponent("cover.png")
        let bytes = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: original)
        let up = ProgressBar("  uploading  ", .upload)
        try await books.uploadCover(id: id, from: original, progress: up.update)
        up.finish()
        let down = ProgressBar("  downloading", .download)
        let copy = try await books.downloadCover(id: id, to: directory.appendingPathComponent("copy.png"), progress: down.update)
        down.finish()
        let same = try Data(contentsOf: copy) == bytes
        print("uploadCover + downloadCover(id: \(id)) → \(bytes.count) bytes, \(same ? "identical" : "DIFFERENT")")
    }
}
