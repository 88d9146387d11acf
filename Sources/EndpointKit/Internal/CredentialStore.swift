/// Holds a credential and runs at most one refresh at a time: callers that ask while a refresh
/// is under way wait for that one.
actor CredentialStore<Credential: Sendable> {
    private(set) var current: Credential
    private var refreshing: Task<Credential, any Error>?

    init(_ credential: Credential) {
        current = credential
    }

    func refresh(using makeFresh: @escaping @Sendable (Credential) async throws -> Credential) async throws -> Credential {
        if let refreshing { return try await refreshing.value }
        let old = current
        let task = Task { try await makeFresh(old) }
        refreshing = task
        do {
            let fresh = try await task.value
            current = fresh
            refreshing = nil
            return fresh
        } catch {
            refreshing = nil
            throw error
        }
    }
}
