static let client: any Client = URLSessionClient(baseURL: URL(fileURLWithPath: "/"))
static let base = URL(fileURLWithPath: "/")
static let login: any Client = URLSessionClient(baseURL: URL(fileURLWithPath: "/"))
static let token = Token(access: "a", expires: Date())
static let logger = Logger(label: "docs")
struct User: Decodable, Sendable { let name: String }
