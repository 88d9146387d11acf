static let api = URL(fileURLWithPath: "/")
static let saved = Token(access: "a", refresh: "r", expires: Date())
struct AuthService: Sendable {
    func refresh(_ token: String) async throws -> Token { Token(access: "a", refresh: token, expires: Date()) }
}
static let authService = AuthService()
static let client = URLSessionClient(baseURL: api)
