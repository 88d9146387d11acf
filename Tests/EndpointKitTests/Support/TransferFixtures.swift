import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct UploadResult: Decodable, Sendable, Equatable { let received: Int }

struct Upload: UploadEndpoint {
    typealias Content = UploadResult
    var method: HTTPMethod = .post
    var path = "upload"
    let body: UploadEndpointBody
    var headers: [String: String] = [:]
    func makeRequest() throws -> (URLRequest, UploadEndpointBody) { (try URLRequest(method, path, headers: headers), body) }
}

/// An upload whose every answer is taken, whatever its status.
struct AnyStatusUpload: UploadEndpoint {
    typealias Content = Data
    let path: String
    let body: UploadEndpointBody
    func makeRequest() throws -> (URLRequest, UploadEndpointBody) { (try URLRequest(.post, path), body) }
    func content(from response: URLResponse?, with body: Data) throws -> Data { body }
    func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {}
}

struct MultipartSummary: Decodable, Sendable { let disposition: String; let type: String; let length: String; let text: String }

struct MultipartUpload: UploadEndpoint {
    typealias Content = [MultipartSummary]
    let form: MultipartFormData
    func makeRequest() throws -> (URLRequest, UploadEndpointBody) { (try URLRequest(.post, "multipart"), .multipart(form)) }
}

struct Download: DownloadEndpoint {
    typealias Content = URL
    var path = "bytes"
    var count: Int64
    var drop: Int64?
    var delayMicroseconds: Int?
    var resumableFileURL: URL?
    /// Whether the server's ETag is weak (it sends a Last-Modified too).
    var weakTag = false
    /// Whether the endpoint's validation refuses every answer, a 2xx too.
    var refusesEveryAnswer = false
    func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        if refusesEveryAnswer { throw URLError(.badServerResponse) }
        try defaultValidation(request, response: response, data: data)
    }
    func makeRequest() throws -> URLRequest {
        var query = [URLQueryItem(name: "count", value: "\(count)")]
        if weakTag { query.append(.init(name: "weak", value: "1")) }
        if let drop { query.append(.init(name: "drop", value: "\(drop)")) }
        if let delayMicroseconds { query.append(.init(name: "delay_us", value: "\(delayMicroseconds)")) }
        return try URLRequest(.get, path, query: query)
    }
}

/// Records progress reports.
final class ProgressLog: Sendable {
    private let box = Guarded<[TransferProgress]>([])
    var reports: [TransferProgress] { box.withLock { $0 } }
    var handler: @Sendable (TransferProgress) -> Void { { [box] report in box.withLock { $0.append(report) } } }

    func isMonotonic(_ direction: TransferProgress.Direction) -> Bool {
        let values = reports.filter { $0.direction == direction }.map(\.completedBytes)
        return zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }
    }
}

/// The names of the files EndpointKit keeps in the temporary directory now (downloads, bodies,
/// forms: `EndpointKit-…`).
func temporaryFilesOfEndpointKit() -> Set<String> {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
    return Set(names.filter { $0.hasPrefix("EndpointKit-") })
}

/// Files made by a test, removed afterwards.
func temporaryFile(_ name: String = UUID().uuidString, contents: Data? = nil) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("EndpointKitTests-\(name)")
    if let contents { _ = FileManager.default.createFile(atPath: url.path, contents: contents) }
    return url
}

/// Writes `count` pattern bytes to a file in chunks (never all in memory).
func patternFile(count: Int64) throws -> URL {
    let url = temporaryFile()
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var index: Int64 = 0
    while index < count {
        let end = min(index + 1 << 20, count)
        try handle.write(contentsOf: TransferRoutes.bytes(index..<end))
        index = end
    }
    return url
}

/// Whether the file holds exactly the first `count` pattern bytes.
func fileMatchesPattern(_ url: URL, count: Int64) throws -> Bool {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var index: Int64 = 0
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
        guard chunk == TransferRoutes.bytes(index..<(index + Int64(chunk.count))) else { return false }
        index += Int64(chunk.count)
    }
    return index == count
}

/// EndpointKit's temporary files left in the temporary directory.
func leftoverTemporaryFiles() -> Set<String> {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
    return Set(names.filter { $0.hasPrefix("EndpointKit-") })
}

/// This process's resident memory, in bytes (Linux).
func residentMemory() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
}
