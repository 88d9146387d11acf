import ArgumentParser
import BookKit
import DemoServer
import EndpointKit
import Foundation

/// Runs the BookService calls against the embedded demo server, or a real one.
@main
struct BookDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book-demo",
        abstract: "Calls a book API through EndpointKit and prints what comes back.",
        discussion: "With no --base-url it starts an embedded demo server on 127.0.0.1, so it works offline.")

    @Option(help: "The book API to call instead of the embedded demo server, e.g. http://localhost:8080.")
    var baseURL: String?

    @Option(help: "After the tour, follow the live book feed (Server-Sent Events) for this many books.")
    var follow: Int = 3

    func run() async throws {
        let server: DemoServer? = baseURL == nil ? try await DemoServer.start() : nil
        guard let url = server?.baseURL ?? baseURL.flatMap(URL.init(string:)) else {
            throw ValidationError("--base-url must be a URL such as http://localhost:8080")
        }
        print(server == nil ? "Calling \(url)" : "Started the demo server at \(url)")
        let client = URLSessionClient(baseURL: url)
        let books: any BookService = BookServiceClient(client: client)
        do {
            try await tour(books)
            if follow > 0 {
                print("\nfollowing the live feed for \(follow) books:")
                var seen = 0
                for try await book in books.followBooks() {
                    print("  new: #\(book.id) \(book.title)")
                    seen += 1
                    if seen == follow { break }
                }
            }
        } catch {
            print("error: \(error)")
        }
        client.invalidate()
        await server?.stop()
    }

    private func tour(_ books: any BookService) async throws {
        let viaCompletion = try await withCheckedThrowingContinuation { continuation in
            books.fetchBooks { continuation.resume(with: $0) }
        }
        print("\nfetchBooks(completion:) → \(viaCompletion.count) books")
        for book in try await books.fetchBooks() {
            print("  #\(book.id) \(book.title) — \(book.author)\(book.year.map { " (\($0))" } ?? "")")
        }
        let created = try await books.create(NewBook(title: "Neuromancer", author: "William Gibson", year: 1984))
        print("\ncreate → #\(created.id) \(created.title)")
        let fetched = try await books.book(id: created.id)
        print("book(id: \(created.id)) → \(fetched.title) by \(fetched.author)")
        try await books.delete(id: created.id)
        print("delete(id: \(created.id)) → done")
        do {
            _ = try await books.book(id: created.id)
        } catch {
            print("book(id: \(created.id)) after delete → error \(error)")
        }
        do {
            _ = try await books.create(NewBook(title: " ", author: "Nobody"))
        } catch {
            print("create(empty title) → error \(error)")
        }
    }
}
