struct Book: Decodable, Sendable { let id: Int; let title: String }
static let client: any Client = URLSessionClient(baseURL: URL(fileURLWithPath: "/"))
