static let api = URL(fileURLWithPath: "/")
static func downloadCover() async throws -> Data { Data() }
