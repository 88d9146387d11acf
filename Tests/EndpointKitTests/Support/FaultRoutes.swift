import Foundation

import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Routes that misbehave on purpose: flaky statuses, resets, stalls, truncation, huge heads.
final class FaultRoutes: Sendable {
    /// Requests seen per `key`, for routes that fail the first N times.
    let counts = Guarded<[String: Int]>([:])
    /// The token `/auth` accepts.
    let validToken = Guarded("token-1")
    /// `/cache`: resources with chosen caching header fields.
    let cacheRoute = CacheRoute()

    func count(_ key: String) -> Int { counts.withLock { $0[key, default: 0] } }

    /// `/hold` requests being answered now, and the most at once.
    private let held = Guarded((now: 0, most: 0))
    var mostHeld: Int { held.withLock { $0.most } }

    var handler: TestServer.Handler {
        { [self] request, response in
            let query = request.queryItems
            let key = query["key"] ?? request.path
            let seen = counts.withLock { counts -> Int in
                counts[key, default: 0] += 1
                return counts[key, default: 0]
            }
            let failures = Int(query["fail"] ?? "") ?? 0
            switch request.path {
            case "/flaky":
                if seen <= failures {
                    var headers = [("Content-Type", "text/plain")]
                    if let retryAfter = query["retry_after"] { headers.append(("Retry-After", retryAfter)) }
                    return try await response.send(
                        status: Int(query["status"] ?? "") ?? 503, headers: headers, body: Data("busy".utf8))
                }
                try await response.sendJSON(["attempt": seen, "received": request.body.count])
            case "/hold":
                // Answers after `seconds` (only the first `slow` requests of its key, when given).
                // A call is held until its answer goes out: the client may send its next call as
                // soon as the answer arrives, before this handler has returned.
                held.withLock { $0 = (now: $0.now + 1, most: max($0.most, $0.now + 1)) }
                do {
                    defer { held.withLock { $0.now -= 1 } }
                    let slow = Int(query["slow"] ?? "") ?? .max
                    if seen <= slow { try await Task.sleep(nanoseconds: UInt64((Double(query["seconds"] ?? "") ?? 10) * 1e9)) }
                }
                try await response.sendJSON(["attempt": seen, "received": request.body.count])
            case "/reset-first":
                if seen <= failures { return await response.reset() }
                try await response.sendJSON(["attempt": seen, "received": request.body.count])
            case "/auth":
                let token = validToken.withLock { $0 }
                guard request.header("Authorization") == "Bearer \(token)" else {
                    // As OAuth servers answer (RFC 6750): a challenge naming a realm.
                    return try await response.send(
                        status: 401, headers: [("WWW-Authenticate", #"Bearer realm="api", error="invalid_token""#)],
                        body: Data("expired".utf8))
                }
                try await response.sendJSON(["attempt": seen, "received": request.body.count])
            case "/sse-stall":
                // Events whose second connection never answers: one event, then a connection
                // that stalls before its head, then the next event, then 204.
                switch seen {
                case 1: try await response.send(headers: [("Content-Type", "text/event-stream")], body: Data("retry: 20\nid: 1\ndata: first\n\n".utf8))
                case 2: try await Task.sleep(nanoseconds: 60_000_000_000)
                case 3: try await response.send(headers: [("Content-Type", "text/event-stream")], body: Data("id: 2\ndata: second\n\n".utf8))
                default: try await response.send(status: 204)
                }
            case "/sse-flap":
                // One event asking to be reconnected at once, then a reset for every reconnection
                // (`?open=1`: after its head and a comment, before any event).
                guard seen == 1 else {
                    if query["open"] != nil {
                        try await response.head(status: 200, headers: [("Content-Type", "text/event-stream")])
                        try await response.write(Data(": open\n\n".utf8))
                    }
                    return await response.reset()
                }
                try await response.send(headers: [("Content-Type", "text/event-stream")], body: Data("retry: 0\ndata: first\n\n".utf8))
            case "/stall":
                try await Task.sleep(nanoseconds: 60_000_000_000)
            case "/stall-body":
                try await response.head(status: 200, headers: [("Content-Length", "1000")])
                try await response.write(Data(repeating: 0x41, count: 100))
                try await Task.sleep(nanoseconds: 60_000_000_000)
            case "/refusal-cut":
                // A refusal of what was sent whose body stops after 100 of its 1,000 bytes: the
                // connection then closes, or (`stall`) stays silent for a minute.
                try await response.head(status: 413, headers: [("Content-Length", "1000")])
                try await response.write(Data(repeating: 0x41, count: 100))
                if query["stall"] != nil { try await Task.sleep(nanoseconds: 60_000_000_000) } else { await response.close() }
            case "/stall-chunked":
                // 100 bytes of a body of no declared length, then nothing for a minute.
                try await response.head(status: 200, headers: [("Content-Type", "application/octet-stream")])
                try await response.write(Data(repeating: 0x41, count: 100))
                try await Task.sleep(nanoseconds: 60_000_000_000)
            case "/truncate":
                try await response.head(status: 200, headers: [("Content-Length", "1000"), ("Content-Type", "application/json")])
                try await response.write(Data(#"{"id": 1, "title": "#.utf8))
                await response.close()
            case "/chaos":
                // A fixed mix, picked by the request's number: 55 % fine, 10 % each reset,
                // 503, stall, truncated body, 5 % slow.
                let pick = (Int(query["n"] ?? "") ?? 0) &* 7919 % 100
                switch pick {
                case 0..<55: try await response.sendJSON(["attempt": seen, "received": 0])
                case 55..<65: await response.reset()
                case 65..<75: try await response.send(status: 503)
                case 75..<85: try await Task.sleep(nanoseconds: 5_000_000_000)
                case 85..<95:
                    try await response.head(status: 200, headers: [("Content-Length", "500")])
                    try await response.write(Data(#"{"attempt":"#.utf8))
                    await response.close()
                default:
                    try await Task.sleep(nanoseconds: 100_000_000)
                    try await response.sendJSON(["attempt": seen, "received": 0])
                }
            case "/endless-line":
                // 4 MiB of a feed that never ends its line (`?lines=1`: that never ends its
                // event, a `data` line after another), then the end.
                let piece = query["lines"] == nil ? Data(repeating: 0x41, count: 16_384) : Data(String(repeating: "data: x\n", count: 2_048).utf8)
                try await response.head(status: 200, headers: [("Content-Type", "text/event-stream")])
                try await response.write(Data("data: ".utf8))
                for _ in 0..<256 { try await response.write(piece) }
                try await response.end()
            case "/chunked-big":
                try await response.head(status: 200, headers: [("Content-Type", "application/octet-stream")])
                for _ in 0..<64 { try await response.write(Data(repeating: 0x42, count: 16_384)) }
                try await response.end()
            case "/reset":
                await response.reset()
            case "/cache":
                try await cacheRoute.answer(request, response)
            case "/huge-header":
                let filler = String(repeating: "x", count: 8_000)
                let headers = (0..<1_300).map { ("X-Filler-\($0)", filler) }
                try await response.send(headers: headers, body: Data("{}".utf8))
            case "/huge-length":
                try await response.head(status: 200, headers: [("Content-Length", "\(2 << 30)"), ("Content-Type", "application/json")])
                try await response.write(Data(#"{"id": 1"#.utf8))
                try await Task.sleep(nanoseconds: 60_000_000_000)
            default:
                try await TransferRoutes.handler(request, response)
            }
        }
    }
}

struct Attempt: Decodable, Sendable, Equatable {
    let attempt: Int
    let received: Int
}

/// Any method and path, decoding `/flaky`-style answers.
struct AttemptEndpoint: JSONEndpoint {
    typealias Content = Attempt
    var method: HTTPMethod = .get
    let path: String
    var retryPolicy: RetryPolicy?
    var timeout: TimeInterval?
    var hedging: HedgingPolicy?
    var headers: [String: String] = [:]
    func makeRequest() throws -> URLRequest { try URLRequest(method, path, headers: headers) }
}

struct AttemptUpload: UploadEndpoint {
    typealias Content = Attempt
    let path: String
    let body: UploadEndpointBody
    var retryPolicy: RetryPolicy? { RetryPolicy.fast.retryingAllMethods() }
    func makeRequest() throws -> (URLRequest, UploadEndpointBody) { (try URLRequest(.post, path), body) }
}

extension RetryPolicy {
    /// The default policy with waits short enough for tests.
    static let fast = RetryPolicy(initialDelay: 0.01, maximumDelay: 0.05)
}
