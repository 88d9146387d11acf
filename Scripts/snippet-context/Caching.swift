static let api = URL(fileURLWithPath: "/")
static let cachesDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("snippet-cache")
