@_spi(Transport) import EndpointKit
import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One generated operation as an EndpointKit endpoint: its request as the generated code made
/// it, named by its operation ID; every status accepted but those the client may retry.
struct OperationEndpoint: Endpoint, StatusAccepting {
    typealias Content = Data

    let request: URLRequest
    let callName: String?
    /// Statuses refused (so the client's retry policy sees them); the transport hands the last
    /// one over as an answer.
    let refusedStatuses: Set<Int>

    /// The operation `request` to the server at `baseURL`, its URL parsed once for `urls`.
    init(request: HTTPRequest, baseURL: URL, operationID: String, refusedStatuses: Set<Int>, urls: ParsedURLs) throws {
        let target = Self.target(of: request, on: baseURL)
        guard let url = urls.url(for: target, parsing: { URL(string: target) }) else { throw EndpointKitError.invalidURL(target) }
        var urlRequest = URLRequest(url: url)
        // GET is the default; Foundation normalizes every method it is given.
        if request.method != .get { urlRequest.httpMethod = request.method.rawValue }
        // Set at once: Foundation's `setValue` capitalizes and scans for each field (about
        // 0.75 µs a field on Linux, against 0.1 µs for the whole dictionary). Each name once,
        // spelled as it first came, its values joined as HTTP joins them; the few fields of a
        // request are compared directly, with no dictionary of names.
        let all = request.headerFields
        var fields = [String: String](minimumCapacity: all.count)
        for index in all.indices {
            let name = all[index].name
            guard !all[..<index].contains(where: { $0.name == name }) else { continue }
            let repeated = all[(index + 1)...].contains { $0.name == name }
            fields[name.rawName] = repeated ? all[name] : all[index].value
        }
        if !fields.isEmpty { urlRequest.allHTTPHeaderFields = fields }
        self.request = urlRequest
        self.callName = operationID
        self.refusedStatuses = refusedStatuses
    }

    /// Where `request` goes, as text: the server URL (less a trailing `/`), then the request's
    /// path with its query.
    static func target(of request: HTTPRequest, on baseURL: URL) -> String {
        let base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        let path = request.path ?? "/"
        return base + (path.hasPrefix("/") ? path : "/" + path)
    }

    func makeRequest() throws -> URLRequest { request }

    /// Operations go through the client's cache, when it has one, by HTTP's rules: a `GET` may
    /// be answered from it, an unsafe method outdates what it holds for the URL.
    var cachePolicy: CachePolicy? { .useProtocolRules }

    /// Every answer goes to the generated code, which knows the documented ones; a status the
    /// client may retry is refused first.
    func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        guard !accepts(statusCode: response.statusCode) else { return }
        throw EndpointKitError.unacceptableStatus(HTTPFailure(request: request, response: response, body: data ?? Data()))
    }

    /// Every status but the refused ones, with no `HTTPURLResponse` built for it.
    func accepts(statusCode: Int) -> Bool {
        !refusedStatuses.contains(statusCode)
    }

    func content(from response: URLResponse?, with body: Data) throws -> Data { body }
}
