import BookKit
import Foundation
import Hummingbird
import Logging
import NIOCore

/// The book API, served in-process on 127.0.0.1 and a random port, so the example runs offline.
public final class DemoServer: Sendable {
    /// Where the server listens, such as `http://127.0.0.1:40123`.
    public let baseURL: URL
    private let task: Task<Void, any Error>

    private init(baseURL: URL, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.task = task
    }

    /// The books the server starts with.
    public static let seed = [
        NewBook(title: "Dune", author: "Frank Herbert", year: 1965),
        NewBook(title: "Solaris", author: "Stanisław Lem", year: 1961),
        NewBook(title: "The Left Hand of Darkness", author: "Ursula K. Le Guin", year: 1969),
        NewBook(title: "Roadside Picnic", author: "Arkady and Boris Strugatsky", year: 1972),
    ]

    /// Starts the server and returns once it accepts connections.
    public static func start() async throws -> DemoServer {
        let store = BookStore(seed: seed)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: routes(store),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "EndpointKit demo"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: Logger(label: "demo-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        let task = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0, let url = URL(string: "http://127.0.0.1:\(port)") else {
            task.cancel()
            throw CancellationError()
        }
        return DemoServer(baseURL: url, task: task)
    }

    /// Stops the server.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }

    static func routes(_ store: BookStore) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("books") { request, _ -> Response in
            let page = request.uri.queryParameters.get("page", as: Int.self) ?? 1
            let perPage = request.uri.queryParameters.get("per_page", as: Int.self) ?? 20
            guard page >= 1, (1...100).contains(perPage) else {
                return try json(APIError(error: "page must be ≥ 1 and per_page 1…100"), status: .badRequest)
            }
            return try cacheable(await store.page(page, perPage: perPage), for: request)
        }
        router.get("books/feed") { request, _ -> Response in
            // Server-Sent Events: the seeded books again, one every 200 ms, resuming after Last-Event-ID.
            let after = request.headers.first { $0.name.canonicalName == "last-event-id" }.flatMap { Int($0.value) } ?? 0
            let books = await store.page(1, perPage: 100)
            let body = ResponseBody { writer in
                for (index, book) in books.enumerated() where index + 1 > after {
                    let json = String(decoding: try JSONEncoder().encode(book), as: UTF8.self)
                    try await writer.write(ByteBuffer(string: "id: \(index + 1)\nevent: book\ndata: \(json)\n\n"))
                    try await Task.sleep(nanoseconds: 200_000_000)
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream"], body: body)
        }
        router.get("books/:id") { request, context -> Response in
            let id = try context.parameters.require("id", as: Int.self)
            guard let book = await store.book(id) else {
                return try json(APIError(error: "no book with id \(id)"), status: .notFound)
            }
            return try cacheable(book, for: request)
        }
        router.post("books") { request, context -> Response in
            guard let new = try? await request.decode(as: NewBook.self, context: context) else {
                return try json(APIError(error: "the body must be a JSON book with a title and an author"), status: .badRequest)
            }
            guard !new.title.trimmingCharacters(in: .whitespaces).isEmpty else {
                return try json(APIError(error: "title must not be empty"), status: .unprocessableContent)
            }
            return try json(await store.add(new), status: .created)
        }
        router.put("books/:id") { request, context -> Response in
            let id = try context.parameters.require("id", as: Int.self)
            guard let new = try? await request.decode(as: NewBook.self, context: context) else {
                return try json(APIError(error: "the body must be a JSON book with a title and an author"), status: .badRequest)
            }
            guard let book = await store.update(id, with: new) else {
                return try json(APIError(error: "no book with id \(id)"), status: .notFound)
            }
            return try json(book)
        }
        router.put("books/:id/cover") { request, context -> Response in
            let id = try context.parameters.require("id", as: Int.self)
            let type = request.headers[.contentType] ?? "application/octet-stream"
            guard type.hasPrefix("image/") else {
                return try json(APIError(error: "a cover must be an image, not \(type)"), status: .unsupportedMediaType)
            }
            let body = try await request.body.collect(upTo: 64 << 20)
            guard await store.setCover(id, .init(contentType: type, bytes: Data(buffer: body))) else {
                return try json(APIError(error: "no book with id \(id)"), status: .notFound)
            }
            return Response(status: .noContent)
        }
        router.get("books/:id/cover") { _, context -> Response in
            let id = try context.parameters.require("id", as: Int.self)
            guard let cover = await store.cover(id) else {
                return try json(APIError(error: "book \(id) has no cover"), status: .notFound)
            }
            return Response(
                status: .ok, headers: [.contentType: cover.contentType],
                body: .init(byteBuffer: ByteBuffer(bytes: cover.bytes)))
        }
        quoteRoutes(router.group("quotable"))
        router.delete("books/:id") { _, context -> Response in
            let id = try context.parameters.require("id", as: Int.self)
            guard await store.remove(id) else {
                return try json(APIError(error: "no book with id \(id)"), status: .notFound)
            }
            return Response(status: .noContent)
        }
        return router
    }

    /// The quotes API, in the shape of the public Quotable API.
    static func quoteRoutes(_ group: RouterGroup<BasicRequestContext>) {
        group.get("random") { request, _ -> Response in
            let tag = request.uri.queryParameters.get("tags")
            let matching = QuoteStore.quotes.filter { quote in tag.map { quote.tags.contains($0) } ?? true }
            guard let quote = matching.randomElement() else {
                return try quotableError(404, "Could not find any matching quotes")
            }
            return try json(quote)
        }
        group.get("quotes") { request, _ -> Response in
            let parameters = request.uri.queryParameters
            let page = parameters.get("page", as: Int.self) ?? 1
            let limit = parameters.get("limit", as: Int.self) ?? 20
            guard page >= 1, (1...150).contains(limit) else { return try quotableError(400, "page must be ≥ 1 and limit 1…150") }
            let tag = parameters.get("tags")
            let matching = QuoteStore.quotes.filter { quote in tag.map { quote.tags.contains($0) } ?? true }
            return try json(QuoteStore.page(matching, page: page, limit: limit))
        }
        group.get("search/authors") { request, _ -> Response in
            guard let query = request.uri.queryParameters.get("query")?.lowercased(), !query.isEmpty else {
                return try quotableError(400, "query is required")
            }
            let matching = QuoteStore.authors.filter { $0.name.lowercased().contains(query) }
            return try json(QuoteStore.page(matching, page: 1, limit: 20))
        }
    }

    static func quotableError(_ status: Int, _ message: String) throws -> Response {
        struct Body: Encodable { let statusCode: Int; let statusMessage: String }
        return try json(Body(statusCode: status, statusMessage: message), status: .init(code: status))
    }

    /// `value` as JSON with sorted keys: the same value is the same body (and so the same ETag)
    /// every time, which Foundation's encoder does not promise otherwise.
    static func encoded<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(value)
    }

    /// How long book answers are fresh, in seconds: short, so a demo shows hits and revalidations.
    public static let freshness = 2

    /// `value` as JSON with an `ETag` (a hash of the body) and `Cache-Control: max-age`, as
    /// REST APIs that poll well send; `304 Not Modified` when the request's `If-None-Match`
    /// names the same tag.
    static func cacheable<T: Encodable>(_ value: T, for request: Request) throws -> Response {
        let data = try encoded(value)
        let hash = data.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
        let tag = "\"\(String(hash, radix: 16))\""
        let headers: HTTPFields = [.eTag: tag, .cacheControl: "max-age=\(freshness)"]
        if request.headers[.ifNoneMatch]?.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag }) == true {
            return Response(status: .notModified, headers: headers)
        }
        return Response(
            status: .ok, headers: headers + [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoded(value)
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
