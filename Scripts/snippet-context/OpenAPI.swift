static let api = URL(fileURLWithPath: "/")
