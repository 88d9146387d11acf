import Foundation
import NIOHTTP1

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

    /// `books[0]` as JSON, gzip-compressed and zlib-compressed (Content-Encoding `deflate`).
    static let gzipBook = "H4sIAAAAAAACA6tWykxRsjLUUSrJLMlJVbJScinNS1XSUUosLcnIL1KyqlbKS8wFibsVJeZlK3ikFiWlFpUo1dYCADC4HQY5AAAA"
    /// `books[0]` under other codings: brotli, Zstandard, gzip then brotli, and gzip in capitals.
    static let encodedBooks = [
        "br": "GzgAQJwHtlu0C1MoON3JT4VaZK8sZhGlpQ5LX5K51cEGHDgl0rborsMGnHBlw5tYgAN38ZQUgheKqdQD",
        "zstd": "KLUv/SA5yQEAeyJpZCI6MSwidGl0bGUiOiJEdW5lIiwiYXV0aG9yIjp7Im5hbWUiOiJGcmFuayBIZXJiZXJ0In19",
        "gzip, br": "CyWAH4sIAAAAAAACA6tWykxRsjLUUSrJLMlJVbJScinNS1XSUUosLcnIL1KyqlbKS8wFibsVJeZlK3ikFiWlFpUo1dYCADC4HQY5AAAAAw==",
        "GZIP": gzipBook,
    ]
    static let deflateBook = "eJyrVspMUbIy1FEqySzJSVWyUnIpzUtV0lFKLC3JyC9SsqpWykvMBYm7FSXmZSt4pBYlpRaVKNXWAgAARxKH"
    /// `books[0]` as raw deflate, without zlib's wrapping: what some servers send as `deflate`.
    static let rawDeflateBook = "q1bKTFGyMtRRKsksyUlVslJyKc1LVdJRSiwtycgvUrKqVspLzAWJuxUl5mUreKQWJaUWlSjV1gIA"

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
            let challenge = query["challenge"].map { [(code == 407 ? "Proxy-Authenticate" : "WWW-Authenticate", $0)] } ?? []
            try await response.send(
                status: code, headers: [("Content-Type", type), ("X-Test", "yes")] + challenge,
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
        case "/cookies/set":
            // As httpbin's: each query item becomes a cookie (one Set-Cookie each), then a
            // redirect to /echo, whose Cookie header shows what the client sent back.
            let cookies = (request.query ?? "").split(separator: "&").map { item in
                ("Set-Cookie", "\(item); Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT; HttpOnly")
            }
            try await response.send(status: 302, headers: [("Location", "/echo")] + cookies)
        case "/negotiated":
            // As most servers do: compressed only when the request says it can read gzip.
            let accepted = request.headers.first(name: "Accept-Encoding") ?? ""
            if accepted.lowercased().contains("gzip") {
                try await response.send(
                    headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                    body: Data(base64Encoded: gzipBook) ?? Data())
            } else {
                try await response.sendJSON(books[0])
            }
        case "/etag-book":
            // A conditional GET: 304 with no body while the client's tag is current.
            if request.header("If-None-Match") == #""b1""# {
                // RFC 9110 (8.6) lets a 304 declare the length (`length`) of the body a 200 would
                // carry; some servers declare its coding (`coding`) too.
                var headers = [("ETag", #""b1""#)]
                if let coding = request.queryItems["coding"] { headers.append(("Content-Encoding", coding)) }
                try await response.send(status: 304, headers: headers, contentLength: request.queryItems["length"].flatMap { Int($0) })
            } else {
                try await response.send(
                    headers: [("Content-Type", "application/json"), ("ETag", #""b1""#)], body: try JSONEncoder().encode(books[0]))
            }
        case "/encoded":
            // The book under each `Content-Encoding` as servers send it; `x-custom` is plain
            // JSON under a coding no client knows, so reading it as JSON would be wrong. With
            // `plain`, plain JSON whatever the coding says (a server that labels it wrongly).
            let coding = request.queryItems["coding"] ?? "identity"
            let encoded = request.queryItems["plain"] == nil ? encodedBooks[coding] : nil
            let body = encoded.flatMap { Data(base64Encoded: $0) } ?? Data(#"{"id":1,"title":"Dune","author":{"name":"Frank Herbert"}}"#.utf8)
            try await response.send(headers: [("Content-Type", "application/json"), ("Content-Encoding", coding)], body: body)
        case "/gzip", "/deflate", "/raw-deflate":
            let body = Data(base64Encoded: ["/gzip": gzipBook, "/deflate": deflateBook][request.path] ?? rawDeflateBook) ?? Data()
            try await response.send(
                headers: [("Content-Type", "application/json"), ("Content-Encoding", request.path == "/gzip" ? "gzip" : "deflate")],
                body: body)
        case "/wire":
            // Responses as servers really send them, written byte for byte. Each closes its
            // connection: the server's own HTTP handlers never saw these responses end.
            let json = #"{"id":1,"title":"Dune","author":{"name":"Frank Herbert"}}"#
            let length = "Content-Length: \(json.utf8.count)\r\n"
            let (head, tail) = (json.prefix(10), json.dropFirst(10))
            let forms = [
                "close-delimited": "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n",
                "http-1.0": "HTTP/1.0 200 OK\r\nServer: SimpleHTTP/0.6\r\nContent-type: application/json\r\n",
                "chunked-trailer": "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n",
                "early-hints": "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
                    + "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + length,
                "no-reason": "HTTP/1.1 200 \r\nContent-Type: application/json\r\n" + length,
                "no-reason-no-space": "HTTP/1.1 200\r\nContent-Type: application/json\r\n" + length,
                "two-lengths": "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + length + length,
                // Gunicorn sends its own length and the one the app set, both (httpbin's
                // `/response-headers?Content-Length=3`).
                "differing-lengths": "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + length + "Content-Length: 3\r\n",
                "folded-header": "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Note: one\r\n two\r\n" + length,
                "no-space-after-colon": "HTTP/1.1 200 OK\r\nContent-Type:application/json\r\n" + length,
                "utf8-header": "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Author: Stanisław Lem\r\n" + length,
                "latin1-header": "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Disposition: attachment; filename=\"caf\u{FFFD}.json\"\r\n" + length,
                // Not HTTP: no client reads these.
                "negative-length": "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: -1\r\n",
                "nul-in-header": "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Note: a\u{0}b\r\n" + length,
                "line-without-colon": "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Note\r\n" + length,
                "four-digit-status": "HTTP/1.1 2000 OK\r\nContent-Type: application/json\r\n" + length,
                "http-3.0": "HTTP/3.0 200 OK\r\nContent-Type: application/json\r\n" + length,
                "huge-field": "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Note: \(String(repeating: "a", count: 150_000))\r\n" + length,
                "bad-chunk-size": "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
                "huge-chunk-size": "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
                // A service that is not HTTP at all, on the port the URL names.
                "no-head": "SSH-2.0-OpenSSH_9.2\r\n",
            ]
            guard let form = query["form"], let start = forms[form] else { return try await response.send(status: 400) }
            let body =
                switch form {
                case "chunked-trailer":
                    String(head.utf8.count, radix: 16) + ";note=first\r\n\(head)\r\n"
                        + String(tail.utf8.count, radix: 16) + "\r\n\(tail)\r\n0\r\nX-Checksum: 1\r\n\r\n"
                case "bad-chunk-size": "zz\r\n\(json)\r\n0\r\n\r\n"
                case "huge-chunk-size": "ffffffffffffffffffff\r\n\(json)\r\n0\r\n\r\n"
                default: json
                }
            var bytes = Data((form == "no-head" ? start : start + "Connection: close\r\n\r\n" + body).utf8)
            if form == "latin1-header", let mark = bytes.range(of: Data("\u{FFFD}".utf8)) {
                bytes.replaceSubrange(mark, with: [0xE9])  // é in Latin-1: not UTF-8
            }
            try await response.raw(bytes)
            await response.close()
        case "/idle-close":
            // Keep-alive, but the connection is closed after 30 ms idle, as servers with a
            // short keep-alive timeout do.
            try await response.sendJSON(books[0])
            try await Task.sleep(nanoseconds: 30_000_000)
            await response.closeIfIdle()
        case "/early":
            // 413 before the upload has arrived, then (with `close`) the connection closed at once.
            try await response.send(
                status: 413, headers: [("Content-Type", "text/plain"), ("Connection", "close")], body: Data("too large".utf8))
            if query["close"] != nil { await response.close() }
        case "/early-hangup":
            // Closed at its head, without an answer, while a body may still be on its way.
            await response.close()
        case "/gzip-cut":
            // A gzip body cut short inside its compressed data: a stored block of 1,000 bytes of
            // which 600 are sent, framed by its length (`framing=length`, as a proxy that cut
            // it sends it) or by the connection's close.
            let body = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF, 1, 0xE8, 0x03, 0x17, 0xFC]) + Data(repeating: 0x61, count: 600)
            let length = query["framing"] == "length" ? "Content-Length: \(body.count)\r\n" : ""
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: gzip\r\n\(length)Connection: close\r\n\r\n"
            try await response.raw(Data(head.utf8) + body)
            await response.close()
        case "/head-cut":
            // A status line and a field, then the connection closed before the blank line that
            // ends a head: a server process that died, or a device reset, as it answered.
            try await response.raw(Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n".utf8))
            await response.close()
        case "/upgrade-answer":
            // A 101 that does not complete a WebSocket handshake: `form=wrong-accept`, its
            // `Sec-WebSocket-Accept` answers another key; `form=other-protocol`, it switches to
            // another protocol than the one asked for.
            let upgrade = query["form"] == "other-protocol" ? "Upgrade: h2c\r\nConnection: Upgrade\r\n"
                : "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
            try await response.raw(Data(("HTTP/1.1 101 Switching Protocols\r\n" + upgrade + "\r\n").utf8))
            await response.close()
        case "/empty-encoded":
            // An empty body labelled with a coding (`coding`), as some frameworks send: nothing to decode.
            try await response.send(headers: [("Content-Encoding", request.queryItems["coding"] ?? "gzip")])
        case "/head-length":
            // A HEAD answer announces the length (`length`, 1000 unless given) and the coding
            // (`coding`, if given) of a body it does not send.
            let coding = request.queryItems["coding"].map { [("Content-Encoding", $0)] } ?? []
            try await response.send(headers: coding, contentLength: request.queryItems["length"].flatMap { Int($0) } ?? 1000)
        case "/redirect":
            let status = Int(query["status"] ?? "") ?? 302
            try await response.send(status: status, headers: [("Location", query["to"] ?? "/echo")])
        default:
            try await response.send(status: 404, body: Data("no route \(request.path)".utf8))
        }
    }
}
