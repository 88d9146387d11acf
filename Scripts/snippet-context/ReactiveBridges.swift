static let client: any Client = URLSessionClient(baseURL: URL(fileURLWithPath: "/"))
static let cover = URL(fileURLWithPath: "/tmp/cover.png")
nonisolated(unsafe) static let pricePublisher = PassthroughSubject<Double, Never>()
struct PriceFeed: Endpoint {
    typealias Content = Void
    func makeRequest() throws -> URLRequest { try URLRequest(.get, "prices") }
}
typealias GetBook = GetBookEndpoint
typealias UploadCover = UploadCoverEndpoint
