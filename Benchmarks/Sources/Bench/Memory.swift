import AsyncHTTPClient
import BenchAPI
import EndpointKit
import EndpointKitAsyncHTTPClient
import EndpointKitOpenAPI
import BenchSupport
import Foundation
import NIOCore
import OpenAPIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Resident memory of this process, from /proc (Linux).
enum Memory {
    /// Current and peak resident set size, in bytes.
    static func resident() -> (current: Int, peak: Int) {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
        func value(_ key: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(key) } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return (value("VmRSS:"), value("VmHWM:"))
    }

    /// Resets the peak to the current size (Linux 4.0+), so a scenario's peak is its own.
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }
}

/// A GET downloaded to a file.
struct FileBytes: DownloadEndpoint {
    typealias Content = URL
    let path: String
    var resumableFileURL: URL?
    func makeRequest() throws -> URLRequest { try URLRequest(.get, path) }
}

/// One memory scenario, run in a child process so its peak is its own; prints `peak-delta <bytes>`.
enum MemoryScenario: String, CaseIterable {
    case clientDownload = "URLSessionClient.download (file)"
    case clientRequest = "URLSessionClient.request (Data)"
    case rawDownloadTask = "raw URLSession downloadTask"
    case rawDataTask = "raw URLSession dataTask (Data)"
    case rawDelegateDiscard = "raw dataTask, delegate drops chunks"
    case ahcDownload = "AsyncHTTPClientClient.download (file)"
    case openAPIDownload = "generated client on AHC client, read"
    case openAPIUpload = "generated client on AHC client, upload"
    case rawAHCUpload = "raw AsyncHTTPClient, streamed upload"
    case clientConcurrent = "URLSessionClient, 1,000 concurrent GETs"
    case ahcConcurrent = "AsyncHTTPClientClient, 1,000 concurrent GETs"

    var flag: String { String(describing: self) }

    static func run(_ flag: String, baseURL: URL, bytes: Int) async throws {
        guard let scenario = allCases.first(where: { $0.flag == flag }) else { return }
        let path = "bytes?count=\(bytes)"
        let url = baseURL.appendingPathComponent("bytes").appending(queryItems: [.init(name: "count", value: "\(bytes)")])
        let client = URLSessionClient(baseURL: baseURL, maximumBodySize: .max)
        let ahc = AsyncHTTPClientClient(baseURL: baseURL, maximumBodySize: .max)
        defer { Task { try? await ahc.shutdown() } }
        let session = URLSession(configuration: .endpointKitDefault)
        _ = try await client.request(RawBytes(path: "bytes?count=1024"))
        _ = try await ahc.request(RawBytes(path: "bytes?count=1024"))
        _ = try await session.data(from: url.deletingLastPathComponent().appendingPathComponent("warmup"))
        Memory.resetPeak()
        let before = Memory.resident().current
        switch scenario {
        case .clientDownload:
            let file = try await client.download(FileBytes(path: path))
            try? FileManager.default.removeItem(at: file)
        case .clientRequest:
            let data = try await client.request(RawBytes(path: path))
            precondition(data.count == bytes)
        case .ahcDownload:
            let file = try await ahc.download(FileBytes(path: path))
            try? FileManager.default.removeItem(at: file)
        case .openAPIDownload:
            // A generated client's binary answer, read chunk by chunk as it arrives.
            let api = BenchAPI.Client(serverURL: baseURL, transport: EndpointKitTransport(client: ahc))
            var read = 0
            for try await chunk in try await api.getBytes(query: .init(count: Int64(bytes))).ok.body.binary { read += chunk.count }
            precondition(read == bytes)
        case .openAPIUpload:
            // A generated client's request body of unknown length, produced 64 KiB at a time.
            let api = BenchAPI.Client(serverURL: baseURL, transport: EndpointKitTransport(client: ahc))
            let chunks = RepeatedChunks(count: bytes / RepeatedChunks.size)
            let body = HTTPBody(chunks, length: .unknown, iterationBehavior: .single)
            let received = try await api.upload(body: .binary(body)).ok.body.json.received
            precondition(received == Int64(chunks.count * RepeatedChunks.size))
        case .rawAHCUpload:
            // The same body straight to AsyncHTTPClient: the baseline for the row above.
            var request = HTTPClientRequest(url: baseURL.absoluteString + "/upload")
            request.method = .POST
            request.body = .stream(RepeatedChunks(count: bytes / RepeatedChunks.size).map { ByteBuffer(bytes: $0) }, length: .unknown)
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
            _ = try await response.body.collect(upTo: 1 << 20)
        case .clientConcurrent, .ahcConcurrent:
            let runner: any EndpointKit.Client = scenario == .clientConcurrent ? client : ahc
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<1_000 { group.addTask { try await runner.request(RawBytes(path: "json")).count } }
                for try await count in group { precondition(count > 0) }
            }
        case .rawDownloadTask:
            let file: URL = try await withCheckedThrowingContinuation { continuation in
                session.downloadTask(with: url) { location, _, error in
                    if let location {
                        let kept = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
                        try? FileManager.default.moveItem(at: location, to: kept)
                        continuation.resume(returning: kept)
                    } else {
                        continuation.resume(throwing: error ?? URLError(.unknown))
                    }
                }.resume()
            }
            try? FileManager.default.removeItem(at: file)
        case .rawDataTask:
            let (data, _) = try await session.data(from: url)
            precondition(data.count == bytes)
        case .rawDelegateDiscard:
            await withCheckedContinuation { continuation in
                let done = DiscardingDelegate { continuation.resume() }
                let delegated = URLSession(configuration: .endpointKitDefault, delegate: done, delegateQueue: nil)
                delegated.dataTask(with: url).resume()
            }
        }
        print("peak-delta \(Memory.resident().peak - before)")
        client.invalidate()
    }

    /// Prints every scenario's peak growth, each measured in a child process.
    static func table(baseURL: URL, bytes: Int) throws {
        print("Peak resident memory growth while transferring \(bytes >> 20) MB, or during 1,000 concurrent small GETs (each in its own process)")
        print("  scenario                              peak growth")
        for scenario in allCases {
            let delta = try scenario.measure(baseURL: baseURL, bytes: bytes)
            let flat: Set<MemoryScenario> = [.clientDownload, .ahcDownload, .openAPIDownload, .openAPIUpload]
            let verdict = flat.contains(scenario) ? (delta <= 32 << 20 ? "  ✓ goal ≤ 32 MB" : "  ✗ goal ≤ 32 MB") : ""
            print("  " + scenario.rawValue.padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: "%8.1f MB", Double(delta) / 1_048_576) + verdict)
        }
    }

    /// Runs this scenario in a child process and returns its peak growth in bytes.
    func measure(baseURL: URL, bytes: Int) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["memory-child", flag, baseURL.absoluteString, "\(bytes)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = output.split(separator: "\n").first { $0.hasPrefix("peak-delta ") } ?? ""
        return Int(line.split(separator: " ").last ?? "") ?? -1
    }
}

/// A raw delegate that only counts chunks: what any delegate-based consumer costs in memory.
final class DiscardingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let onComplete: @Sendable () -> Void
    init(onComplete: @escaping @Sendable () -> Void) { self.onComplete = onComplete }
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {}
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) { onComplete() }
}

/// `count` chunks of 64 KiB, each made when it is asked for (a producer that never runs ahead).
struct RepeatedChunks: AsyncSequence, Sendable {
    static let size = 64 << 10
    let count: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var left: Int
        let chunk = ArraySlice([UInt8](repeating: 7, count: RepeatedChunks.size))

        mutating func next() async -> ArraySlice<UInt8>? {
            guard left > 0 else { return nil }
            left -= 1
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(left: count) }
}
