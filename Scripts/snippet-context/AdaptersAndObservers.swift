actor TokenStore {
    func current() async throws -> String { "token" }
}
