static let api = URL(fileURLWithPath: "/")
struct GetBook: JSONEndpoint {
    typealias Content = BookKit.Book
    let id: Int
    func makeRequest() throws -> URLRequest { try URLRequest(.get, "books/\(id)") }
}
static let logger = Logger(label: "docs")
struct HTTPServer: Service { func run() async throws {} }
static let server = HTTPServer()
