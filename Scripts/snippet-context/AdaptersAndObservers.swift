actor TokenStore {
    func current() async throws -> String { "token" }
}
static let api = URL(fileURLWithPath: "/")
