import Foundation

/// What `/echo` answers: the request as the server saw it.
struct Echo: Codable, Sendable, Equatable {
    let method: String
    let path: String
    let query: String?
    let headers: [String: String]
    let body: String
    let bodyLength: Int
}

struct Book: Codable, Sendable, Equatable {
    let id: Int
    let title: String
    let author: Author?

    struct Author: Codable, Sendable, Equatable {
        let name: String
    }
}

/// The routes most tests run against, in the spirit of httpbin.
enum Routes {
    static let books = [
        Book(id: 1, title: "Dune", author: .init(name: "Frank Herbert")),
        Book(id: 2, title: "Solaris", author: .init(name: "Stanisław Lem")),
    ]

    static let standard: TestServer.Handler = { request, response in
        let query = request.queryItems
        switch request.path {
        case "/echo", "/api/v1/echo":
            var headers: [String: String] = [:]
            for (name, value) in request.headers {
                let key = name.lowercased()
                headers[key] = headers[key].map { $0 + ", " + value } ?? value
            }
            try await response.sendJSON(
                Echo(
                    method: request.method, path: request.path, query: request.query, headers: headers,
                    body: String(decoding: request.body, as: UTF8.self), bodyLength: request.body.count))
        case "/books":
            try await response.sendJSON(books)
        case "/books/1":
            try await response.sendJSON(books[0])
        case "/empty":
            try await response.send(status: 204)
        case "/status":
            let code = Int(query["code"] ?? "") ?? 500
            let type = query["type"] ?? "text/plain"
            try await response.send(
                status: code, headers: [("Content-Type", type), ("X-Test", "yes")],
                body: Data((query["body"] ?? "").utf8))
        case "/problem":
            let body = #"{"type":"about:blank","title":"Invalid title","status":422,"detail":"title is empty"}"#
            try await response.send(
                status: 422, headers: [("Content-Type", "application/problem+json")], body: Data(body.utf8))
        case "/html-error":
            try await response.send(
                status: 502, headers: [("Content-Type", "text/html")],
                body: Data("<html><body><h1>502 Bad Gateway</h1></body></html>".utf8))
        case "/malformed":
            try await response.send(
                headers: [("Content-Type", "application/json")], body: Data(#"{"id": 1, "title": "Du"#.utf8))
        case "/wrong-shape":
            try await response.send(
                headers: [("Content-Type", "application/json")],
                body: Data(#"{"id": 1, "title": "Dune", "author": {"nom": "Frank"}}"#.utf8))
        case "/not-json":
            try await response.send(headers: [("Content-Type", "text/html")], body: Data("<p>hello</p>".utf8))
        case "/empty-200":
            try await response.send(headers: [("Content-Type", "application/json")])
        case "/slow":
            let seconds = Double(query["seconds"] ?? "") ?? 10
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            try await response.send(body: Data("done".utf8))
        case "/loop":
            try await response.send(status: 307, headers: [("Location", "/loop")])
        case "/redirect":
            let status = Int(query["status"] ?? "") ?? 302
            try await response.send(status: status, headers: [("Location", query["to"] ?? "/echo")])
        default:
            try await response.send(status: 404, body: Data("no route \(request.path)".utf8))
        }
    }
}
