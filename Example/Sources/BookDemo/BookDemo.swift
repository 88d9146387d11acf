import ArgumentParser

/// The example's command-line tool: one subcommand per service call, against the embedded demo
/// server (the default, so it works offline) or a real API (`--base-url`).
@main
struct BookDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book-demo",
        abstract: "Calls a book API and a quotes API through EndpointKit and prints what comes back.",
        discussion: """
            With no --base-url every command starts an embedded demo server on 127.0.0.1, so it \
            works offline. With no subcommand it takes a tour of every call.
            """,
        subcommands: [
            Tour.self, ListBooks.self, GetBook.self, CreateBook.self, UpdateBook.self, DeleteBook.self,
            UploadCover.self, DownloadCover.self, Follow.self, Quotes.self, Poll.self, OpenAPIDemo.self,
        ],
        defaultSubcommand: Tour.self)
}
