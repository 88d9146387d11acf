static let client: any Client = URLSessionClient(baseURL: URL(fileURLWithPath: "/"))
struct LogTail: Endpoint {
    typealias Content = Void
    func makeRequest() throws -> URLRequest { try URLRequest(.get, "logs") }
}
struct PriceFeed: Endpoint {
    typealias Content = Void
    func makeRequest() throws -> URLRequest { try URLRequest(.get, "prices") }
}
typealias QuoteFeed = PriceFeed
struct Quote: Decodable, Sendable { let text: String }
