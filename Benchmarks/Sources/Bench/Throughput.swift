import EndpointKit
import BenchSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct UploadBytes: UploadEndpoint {
    struct Received: Decodable, Sendable { let received: Int }
    typealias Content = Received
    let data: Data
    func makeRequest() throws -> (URLRequest, UploadEndpointBody) { (try URLRequest(.post, "upload"), .data(data)) }
}

/// Transfer throughput of EndpointKit against raw URLSession, measured alternately in one run.
enum Throughput {
    struct Row {
        let name: String
        let baseline: Double
        let measured: Double
        var ratio: Double { measured / baseline }
    }

    /// Median MB/s of `rounds` runs of `work`, which moves `bytes` bytes.
    static func pair(
        _ name: String, bytes: Int, rounds: Int,
        raw: () async throws -> Void, client: () async throws -> Void
    ) async throws -> Row {
        var rawRates: [Double] = []
        var clientRates: [Double] = []
        try await raw()
        try await client()
        for _ in 0..<rounds {
            rawRates.append(Double(bytes) / (try await seconds(raw)) / 1e6)
            clientRates.append(Double(bytes) / (try await seconds(client)) / 1e6)
        }
        return Row(name: name, baseline: median(rawRates), measured: median(clientRates))
    }

    static func seconds(_ work: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await work()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    static func run(baseURL: URL, rounds: Int) async throws -> [Row] {
        let client = URLSessionClient(baseURL: baseURL)
        let session = URLSession(configuration: .endpointKitDefault)
        defer {
            client.invalidate()
            session.finishTasksAndInvalidate()
        }
        let big = 256 << 20
        let url = baseURL.appendingPathComponent("bytes").appending(queryItems: [.init(name: "count", value: "\(big)")])
        let download = try await pair("download 256 MB to a file", bytes: big, rounds: rounds) {
            let file: URL = try await withCheckedThrowingContinuation { continuation in
                session.downloadTask(with: url) { location, _, error in
                    guard let location else { return continuation.resume(throwing: error ?? URLError(.unknown)) }
                    let kept = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
                    try? FileManager.default.moveItem(at: location, to: kept)
                    continuation.resume(returning: kept)
                }.resume()
            }
            try? FileManager.default.removeItem(at: file)
        } client: {
            let file = try await client.download(FileBytes(path: "bytes?count=\(big)"))
            try? FileManager.default.removeItem(at: file)
        }
        let medium = 64 << 20
        let mediumURL = baseURL.appendingPathComponent("bytes").appending(queryItems: [.init(name: "count", value: "\(medium)")])
        let inMemory = try await pair("download 64 MB into memory", bytes: medium, rounds: rounds) {
            _ = try await session.data(from: mediumURL)
        } client: {
            _ = try await client.request(RawBytes(path: "bytes?count=\(medium)"))
        }
        let payload = Data(repeating: 0x42, count: 128 << 20)
        var uploadRequest = URLRequest(url: baseURL.appendingPathComponent("upload"))
        uploadRequest.httpMethod = "POST"
        let upload = try await pair("upload 128 MB from memory", bytes: payload.count, rounds: rounds) {
            _ = try await session.upload(for: uploadRequest, from: payload)
        } client: {
            _ = try await client.upload(UploadBytes(data: payload))
        }
        return [download, inMemory, upload]
    }
}
