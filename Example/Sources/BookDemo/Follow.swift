import ArgumentParser
import BookKit

/// `book-demo follow [--count N]`
struct Follow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Follow the live book feed (Server-Sent Events) and print books as they are announced.")
    @OptionGroup var options: Options
    @Option(help: "Stop after this many books (0: until the feed ends).") var count = 0

    func run() async throws {
        try await options.run { session in
            var seen = 0
            for try await book in session.books.followBooks() {
                session.output.print(book) { "new: \(describe(book))" }
                seen += 1
                if seen == count { break }
            }
        }
    }
}
