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
        // The new credential is installed before the task finishes, so no caller that waited
        // for it can read the old one afterwards.
        let task = Task {
            do {
                let fresh = try await makeFresh(old)
                self.install(fresh)
                return fresh
            } catch {
                self.install(nil)
                throw error
            }
        }
        refreshing = task
        return try await task.value
    }

    private func install(_ fresh: Credential?) {
        if let fresh { current = fresh }
        refreshing = nil
    }
}
