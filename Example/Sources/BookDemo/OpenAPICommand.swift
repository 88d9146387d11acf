import ArgumentParser
import BookAPI
import EndpointKitOpenAPI
import Foundation

/// `book-demo openapi`: the same book API through a client generated from its OpenAPI document
/// (Sources/BookAPI/openapi.yaml), running on EndpointKit: the book client's retries, timeout
/// and `--verbose` logging apply to each operation, named by its operation ID.
struct OpenAPIDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi", abstract: "Call the book API through a client generated from its OpenAPI document.")
    @OptionGroup var options: Options

    func run() async throws {
        try await options.run { session in
            let api = BookAPI.Client(serverURL: session.baseURL, transport: EndpointKitTransport(client: session.client))
            let page = try await api.listBooks(query: .init(page: 1, perPage: 3)).ok.body.json
            session.output.note("listBooks → \(page.map { "#\($0.id) \($0.title)" }.joined(separator: ", "))")
            let book = try await api.getBook(path: .init(id: 1)).ok.body.json
            session.output.note("getBook(1) → \(book.title) — \(book.author)")
            switch try await api.getBook(path: .init(id: 999)) {
            case .notFound(let notFound): session.output.note("getBook(999) → 404: \(try notFound.body.json.error)")
            default: session.output.note("getBook(999) → an unexpected answer")
            }
            switch try await api.createBook(body: .json(.init(title: " ", author: "Nobody"))) {
            case .unprocessableContent(let refused): session.output.note("createBook(empty title) → 422: \(try refused.body.json.error)")
            case .created(let created): session.output.note("createBook → created #\(try created.body.json.id)")
            case .undocumented(let status, _): session.output.note("createBook → undocumented \(status)")
            }
        }
    }
}
