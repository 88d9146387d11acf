struct Book: Decodable, Sendable { let id: Int; let title: String }
static let client = URLSessionClient(baseURL: URL(fileURLWithPath: "/"))
