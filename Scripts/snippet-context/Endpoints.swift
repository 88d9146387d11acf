struct Book: Decodable, Sendable { let id: Int; let title: String }
