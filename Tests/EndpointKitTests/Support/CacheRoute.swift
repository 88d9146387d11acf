import Foundation

import EndpointKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `/cache?key=…`: a resource whose caching header fields the query chooses, for the cache
/// scenarios. Each key is a resource with a version (1 at first); `POST`, `PUT`, `PATCH` and
/// `DELETE` make a new version. The query names what a `GET` answers with:
///
/// - `cc`: `Cache-Control`; `etag=1`: `ETag: "v<version>"`; `lm=1`: a `Last-Modified` that
///   changes with the version; `lmAgo=N`: `Last-Modified` N seconds ago; `expiresIn=N`:
///   `Expires` N seconds after `Date`; `age=N`: `Age`; `vary`: `Vary`; `status`: the status;
/// - `failAfter=N`: after N `GET`s, fail each with `failWith` (a status, or `reset`);
/// - `location`: a `Location` on answers to unsafe methods; `delayMs`: wait before answering.
///
/// Conditional requests are answered `304` when the validator is current. Every answer has a
/// `Date` of the route's ``clock``; bodies say which version and which request for the key they were.
final class CacheRoute: Sendable {
    struct Answer: Codable, Sendable, Equatable {
        let key: String
        let version: Int
        /// Which `GET` of this key made this body (1 for the first).
        let count: Int
        let language: String?
    }

    private let state = Guarded<[String: (version: Int, gets: Int)]>([:])
    /// The route's now, for `Date` and the fields computed from it: give the same clock to the
    /// cache, so that moving it on ages what the cache holds and nothing else.
    let clock = TestClock()
    private static let epoch = Date(timeIntervalSince1970: 1_700_000_000)

    func answer(_ request: ReceivedRequest, _ response: Responder) async throws {
        let query = request.queryItems
        let key = query["key"] ?? ""
        let method = request.method
        if let delay = query["delayMs"].flatMap(UInt64.init) { try await Task.sleep(nanoseconds: delay * 1_000_000) }
        guard method == "GET" || method == "HEAD" else {
            state.withLock { $0[key, default: (1, 0)].version += 1 }
            let location = query["location"].map { [("Location", $0)] } ?? []
            return try await response.send(status: Int(query["status"] ?? "") ?? 200, headers: location, body: Data("{}".utf8))
        }
        let (version, gets) = state.withLock { state -> (Int, Int) in
            if method == "GET" { state[key, default: (1, 0)].gets += 1 }
            let entry = state[key, default: (1, 0)]
            return (entry.version, entry.gets)
        }
        if let limit = Int(query["failAfter"] ?? ""), gets > limit {
            if query["failWith"] == "reset" { return await response.reset() }
            return try await response.send(status: Int(query["failWith"] ?? "") ?? 503, body: Data("down".utf8))
        }
        let now = clock.now()
        var headers = [("Date", Self.format(now))]
        let etag = query["etag"] == "1" ? "\"v\(version)\"" : nil
        let lastModified =
            query["lm"] == "1"
            ? Self.format(Self.epoch.addingTimeInterval(TimeInterval(version) * 3_600))
            : query["lmAgo"].flatMap(TimeInterval.init).map { Self.format(now.addingTimeInterval(-$0)) }
        if let value = query["cc"] { headers.append(("Cache-Control", value)) }
        if let etag { headers.append(("ETag", etag)) }
        if let lastModified { headers.append(("Last-Modified", lastModified)) }
        if let seconds = query["expiresIn"].flatMap(TimeInterval.init) { headers.append(("Expires", Self.format(now.addingTimeInterval(seconds)))) }
        if let age = query["age"] { headers.append(("Age", age)) }
        if let vary = query["vary"] { headers.append(("Vary", vary)) }
        let notModified =
            request.header("If-None-Match").map { $0 == etag } ?? request.header("If-Modified-Since").map { $0 == lastModified }
            ?? false
        if notModified { return try await response.send(status: 304, headers: headers) }
        let body = try JSONEncoder().encode(Answer(key: key, version: version, count: gets, language: request.header("Accept-Language")))
        headers.append(("Content-Type", "application/json"))
        if method == "HEAD" {
            headers.append(("Content-Length", String(body.count)))
            try await response.head(status: 200, headers: headers)
            return try await response.end()
        }
        try await response.send(status: Int(query["status"] ?? "") ?? 200, headers: headers, body: body)
    }

    /// An IMF-fixdate.
    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

/// A `/cache` resource: `query` chooses its header fields (see ``CacheRoute``).
struct CachedResource: JSONEndpoint {
    typealias Content = CacheRoute.Answer
    var method: HTTPMethod = .get
    let query: [String: String]
    var headers: [String: String] = [:]
    var cachePolicy: CachePolicy?

    init(_ query: [String: String], method: HTTPMethod = .get, headers: [String: String] = [:], cachePolicy: CachePolicy? = nil) {
        self.query = query
        self.method = method
        self.headers = headers
        self.cachePolicy = cachePolicy
    }

    func makeRequest() throws -> URLRequest {
        try URLRequest(method, "cache", query: query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }, headers: headers)
    }
}

/// A `/cache` resource that decodes nothing (for `POST`, `HEAD`, `304`s the caller asked for).
struct CachedResourceHead: Endpoint {
    typealias Content = Int
    var method: HTTPMethod = .head
    let query: [String: String]
    var headers: [String: String] = [:]

    func makeRequest() throws -> URLRequest {
        try URLRequest(method, "cache", query: query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }, headers: headers)
    }

    func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        if response.statusCode == 304 { return }
        try defaultValidation(request, response: response, data: data)
    }

    /// The status.
    func content(from response: URLResponse?, with body: Data) throws -> Int {
        (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}

/// Now, for a cache: moved forward by hand.
final class TestClock: Sendable {
    private let date = Guarded(Date())

    var now: @Sendable () -> Date { { [date] in date.withLock { $0 } } }

    func advance(_ seconds: TimeInterval) {
        date.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// Records what the cache did for each call, from ``CallFinished/cache``.
final class CacheOutcomeLog: CallMonitor {
    private let outcomes = Guarded<[CacheOutcome?]>([])

    var all: [CacheOutcome?] { outcomes.withLock { $0 } }
    var last: CacheOutcome? { outcomes.withLock { $0.last ?? nil } }

    func callFinished(_ event: CallFinished) {
        outcomes.withLock { $0.append(event.cache) }
    }
}
