/// Holds a credential and runs at most one refresh at a time: callers that ask while a refresh
/// is under way wait for that one, and callers that ask to replace a credential already replaced
/// get the one that replaced it.
actor CredentialStore<Credential: Sendable> {
    private(set) var current: Credential
    /// How many credentials have been installed: which one a caller saw.
    private var generation = 0
    private var refreshing: Task<Credential, any Error>?

    init(_ credential: Credential) {
        current = credential
    }

    /// The credential in use and its generation, read together.
    var snapshot: (credential: Credential, generation: Int) { (current, generation) }

    /// Replaces the credential of generation `seen` with a fresh one, unless it is replaced or
    /// being replaced already: a caller that read it just before another caller's refresh
    /// ended must not start a second one.
    func refresh(
        replacing seen: Int, using makeFresh: @escaping @Sendable (Credential) async throws -> Credential
    ) async throws -> Credential {
        if let refreshing { return try await refreshing.value }
        guard seen == generation else { return current }
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
        if let fresh {
            current = fresh
            generation += 1
        }
        refreshing = nil
    }
}
