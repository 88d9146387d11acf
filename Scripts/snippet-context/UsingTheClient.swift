static let base = URL(fileURLWithPath: "/")
static let myQueue = DispatchQueue(label: "my-queue")
struct TokenAdapter: RequestAdapter {
    func adapt(_ request: URLRequest) async throws -> URLRequest { request }
}
static func log(_ request: URLRequest?, _ response: HTTPURLResponse?, _ error: (any Error)?) {}
