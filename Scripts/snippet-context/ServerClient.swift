static let api = URL(fileURLWithPath: "/")
struct GetBook: JSONEndpoint {
    typealias Content = BookKit.Book
    let id: Int
    func makeRequest() throws -> URLRequest { try URLRequest(.get, "books/\(id)") }
}
