static let api = URL(fileURLWithPath: "/")
struct GetBook: JSONEndpoint {
    typealias Content = BookKit.Book
    let id: Int
    func makeRequest() throws -> URLRequest { try URLRequest(.get, "books/\(id)") }
}
static let logger = Logger(label: "books-client")
static let logging = LoggingMonitor(logger: logger)
static let metrics = MetricsMonitor()
