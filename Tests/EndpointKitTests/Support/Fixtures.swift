import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Calls `/echo` (or another path) with any method, query and body; decodes the echo.
struct EchoEndpoint: JSONEndpoint {
    typealias Content = Echo
    var method: HTTPMethod = .get
    var path = "echo"
    var query: [URLQueryItem] = []
    var headers: [String: String] = [:]
    var configure: @Sendable (inout URLRequest) throws -> Void = { _ in }

    func makeRequest() throws -> URLRequest {
        var request = try URLRequest(method, path, query: query, headers: headers)
        try configure(&request)
        return request
    }
}

struct GetBook: JSONEndpoint {
    typealias Content = Book
    var path = "books/1"
    var query: [URLQueryItem] = []
    func makeRequest() throws -> URLRequest { try URLRequest(.get, path, query: query) }
}

struct ListBooks: JSONEndpoint {
    typealias Content = [Book]
    func makeRequest() throws -> URLRequest { try URLRequest(.get, "books") }
}

/// Any path, no content.
struct PathEndpoint: Endpoint {
    typealias Content = Void
    var method: HTTPMethod = .get
    let path: String
    var query: [URLQueryItem] = []
    func makeRequest() throws -> URLRequest { try URLRequest(method, path, query: query) }
}

/// The body as it came, whatever the status.
struct BodyBytes: Endpoint {
    typealias Content = Data
    let path: String
    var query: [URLQueryItem] = []
    func makeRequest() throws -> URLRequest { try URLRequest(.get, path, query: query) }
    func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {}
    func content(from response: URLResponse?, with body: Data) throws -> Data { body }
}

/// Waits `seconds` on the server before it answers.
struct SlowEndpoint: Endpoint {
    typealias Content = Void
    var seconds: Double = 10
    func makeRequest() throws -> URLRequest {
        try URLRequest(.get, "slow", query: [URLQueryItem(name: "seconds", value: String(seconds))])
    }
}

struct FailingEndpoint: Endpoint {
    typealias Content = Void
    struct Failure: Error {}
    func makeRequest() throws -> URLRequest { throw Failure() }
}

/// Records the observer's calls.
final class ObserverLog: Sendable {
    struct Call: Sendable {
        let request: URLRequest?
        let response: HTTPURLResponse?
        let data: Data?
        let error: (any Error)?
        /// The call's context as the observer saw it.
        let context: CallContext?
    }

    private let box = Guarded<[Call]>([])
    var calls: [Call] { box.withLock { $0 } }

    var observer: ResponseObserver {
        { [box] request, response, data, error in
            let call = Call(request: request, response: response, data: data, error: error, context: CallContext.current)
            box.withLock { $0.append(call) }
        }
    }
}

/// A conditional GET: the book and its tag, or `nil` when the tag sent is still current (304).
struct BookIfChanged: Endpoint {
    typealias Content = (book: Book, etag: String?)?
    let path: String
    let etag: String?

    func makeRequest() throws -> URLRequest {
        var request = URLRequest(url: URL(string: path)!)
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        return request
    }

    func validate(_ request: URLRequest?, response: HTTPURLResponse, data: Data?) throws {
        if response.statusCode == 304 { return }
        try defaultValidation(request, response: response, data: data)
    }

    func content(from response: URLResponse?, with body: Data) throws -> Content {
        guard let http = response as? HTTPURLResponse, http.statusCode != 304 else { return nil }
        return (try JSONDecoder().decode(Book.self, from: body), http.value(forHTTPHeaderField: "ETag"))
    }
}
