import ArgumentParser
import BookKit

/// `book-demo quotes random|tag|authors`
struct Quotes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Call the quotes API.", subcommands: [Random.self, Tagged.self, Authors.self])

    /// `book-demo quotes random [--tag TAG]`
    struct Random: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A random quote.")
        @OptionGroup var options: Options
        @Option(help: "Only quotes with this tag.") var tag: String?

        func run() async throws {
            try await options.run { session in
                let quote = try await session.quotes.randomQuote(tag: tag)
                session.output.print(quote) { describe(quote) }
            }
        }
    }

    /// `book-demo quotes tag TAG [--page N]`
    struct Tagged: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "tag", abstract: "Quotes with a tag.")
        @OptionGroup var options: Options
        @Argument(help: "The tag, such as wisdom.") var tag: String
        @Option(help: "The page, from 1.") var page = 1

        func run() async throws {
            try await options.run { session in
                let quotes = try await session.quotes.quotes(tagged: tag, page: page)
                session.output.print(quotes) {
                    (["page \(quotes.page) of \(quotes.totalPages), \(quotes.totalCount) quotes tagged \(tag)"] + quotes.results.map(describe))
                        .joined(separator: "\n")
                }
            }
        }
    }

    /// `book-demo quotes authors QUERY`
    struct Authors: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Search authors by name.")
        @OptionGroup var options: Options
        @Argument(help: "Part of a name.") var query: String

        func run() async throws {
            try await options.run { session in
                let authors = try await session.quotes.searchAuthors(query)
                session.output.print(authors) {
                    authors.results.isEmpty
                        ? "no author matches \(query)"
                        : authors.results.map { "\($0.name) (\($0.quoteCount) quotes)" }.joined(separator: "\n")
                }
            }
        }
    }
}

/// `“Know thyself.” — Socrates [wisdom]`
func describe(_ quote: Quote) -> String {
    "“\(quote.content)” — \(quote.author) [\(quote.tags.joined(separator: ", "))]"
}
