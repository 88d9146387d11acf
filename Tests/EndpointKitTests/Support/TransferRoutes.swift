import Foundation
import NIOHTTP1

/// Routes for uploads and downloads: deterministic bytes, ranges, drops, chunked bodies.
enum TransferRoutes {
    /// The `/bytes` body repeats this block, whose length is prime, so no off-by-one survives.
    private static let block: Data = {
        let period = 65_521
        let one = (0..<period).map { UInt8(truncatingIfNeeded: ($0 &* 31 &+ $0 / 251) % 253) }
        return Data(one + one)
    }()

    /// Bytes `range` of the pattern.
    static func bytes(_ range: Range<Int64>) -> Data {
        let period = Int64(block.count / 2)
        var data = Data(capacity: range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let offset = Int(index % period)
            let length = Int(min(range.upperBound - index, period))
            data.append(block[offset..<(offset + length)])
            index += Int64(length)
        }
        return data
    }

    /// Writes the pattern for `range` in 64 KiB chunks, closing after `dropAfter` bytes if set.
    static func stream(_ range: Range<Int64>, to response: Responder, dropAfter: Int64?, delay: UInt64 = 0) async throws {
        var index = range.lowerBound
        let chunk: Int64 = 64 * 1024
        while index < range.upperBound {
            let end = min(index + chunk, range.upperBound)
            if let dropAfter, end - range.lowerBound > dropAfter {
                try await response.write(bytes(index..<(range.lowerBound + dropAfter)))
                return await response.close()
            }
            try await response.write(bytes(index..<end))
            if delay > 0 { try await Task.sleep(nanoseconds: delay) }
            index = end
        }
        try await response.end()
    }

    /// Parses a multipart/form-data body into (headers, body) parts.
    static func multipartParts(_ body: Data, contentType: String) -> [(headers: [String: String], body: Data)] {
        guard let boundary = contentType.components(separatedBy: "boundary=").last else { return [] }
        let delimiter = Data("--\(boundary)".utf8)
        var parts: [(headers: [String: String], body: Data)] = []
        var ranges: [Range<Data.Index>] = []
        var searchStart = body.startIndex
        while let found = body.range(of: delimiter, in: searchStart..<body.endIndex) {
            ranges.append(found)
            searchStart = found.upperBound
        }
        for (start, end) in zip(ranges, ranges.dropFirst()) {
            var chunk = body[start.upperBound..<end.lowerBound]
            guard chunk.starts(with: Data("\r\n".utf8)) else { continue }
            chunk = chunk.dropFirst(2).dropLast(2)
            guard let split = chunk.range(of: Data("\r\n\r\n".utf8)) else { continue }
            var headers: [String: String] = [:]
            for line in String(decoding: chunk[chunk.startIndex..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n") {
                let pair = line.split(separator: ":", maxSplits: 1)
                if pair.count == 2 { headers[pair[0].lowercased()] = pair[1].trimmingCharacters(in: .whitespaces) }
            }
            parts.append((headers, Data(chunk[split.upperBound...])))
        }
        return parts
    }

    static let handler: TestServer.Handler = { request, response in
        let query = request.queryItems
        switch request.path {
        case "/upload":
            try await response.sendJSON(["received": request.body.count])
        case "/multipart":
            let parts = multipartParts(request.body, contentType: request.header("Content-Type") ?? "")
            let summary = parts.map { part in
                [
                    "disposition": part.headers["content-disposition"] ?? "",
                    "type": part.headers["content-type"] ?? "", "length": "\(part.body.count)",
                    "text": part.body.count < 200 ? String(decoding: part.body, as: UTF8.self) : "",
                ]
            }
            try await response.sendJSON(summary)
        case "/bytes", "/ignore-range":
            let count = Int64(query["count"] ?? "") ?? 1024
            // `weak`: a weak ETag and a Last-Modified; as Go's and Apache's servers, a weak tag
            // in If-Range never matches (RFC 9110, 13.1.5), the date does.
            let weak = query["weak"] != nil
            let etag = (weak ? "W/" : "") + "\"v1-\(count)\""
            let lastModified = "Tue, 03 Nov 2026 10:00:00 GMT"
            let dropAfter = query["drop"].flatMap { Int64($0) }
            let delay = UInt64(query["delay_us"] ?? "") ?? 0
            var start: Int64 = 0
            let validated = request.header("If-Range").map { weak ? $0 == lastModified : $0 == etag } ?? false
            if request.path == "/bytes", let range = request.header("Range"), validated,
                let value = range.split(separator: "=").last?.split(separator: "-").first, let from = Int64(value)
            {
                start = from
            }
            if start >= count && start > 0 {
                return try await response.send(status: 416, headers: [("Content-Range", "bytes */\(count)")])
            }
            var headers = [("Content-Length", "\(count - start)"), ("ETag", etag), ("Content-Type", "application/octet-stream")]
            if weak { headers.append(("Last-Modified", lastModified)) }
            if start > 0 { headers.append(("Content-Range", "bytes \(start)-\(count - 1)/\(count)")) }
            try await response.head(status: start > 0 ? 206 : 200, headers: headers)
            try await stream(start..<count, to: response, dropAfter: dropAfter, delay: delay * 1000)
        case "/stream":
            try await response.head(status: 200, headers: [("Content-Type", "text/plain")])
            for part in ["alpha\nbe", "ta\r\ngam", "ma\rdel", "ta\n", "last"] {
                try await response.write(Data(part.utf8))
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            try await response.end()
        case "/endless":
            // `coding`: sent as the body's `Content-Encoding` (without encoding it); `status`:
            // the answer's (200 by default); `size`: the bytes of each line, written every 10 ms.
            let coding = query["coding"].map { [("Content-Encoding", $0)] } ?? []
            let size = query["size"].flatMap(Int.init)
            let tick = size.map { Data(repeating: 0x2E, count: max($0 - 1, 0)) + Data("\n".utf8) } ?? Data("tick\n".utf8)
            try await response.head(status: Int(query["status"] ?? "") ?? 200, headers: [("Content-Type", "text/plain")] + coding)
            while true {
                try await response.write(tick)
                try await Task.sleep(nanoseconds: 10_000_000)
            }
        case "/sse":
            // Three events per connection, continuing after Last-Event-ID; a comment and a retry.
            let start = Int(request.header("Last-Event-ID") ?? "") ?? 0
            guard start < 6 else { return try await response.send(status: 204) }
            try await response.head(status: 200, headers: [("Content-Type", "text/event-stream")])
            try await response.write(Data(": hello\nretry: 50\n\n".utf8))
            for id in (start + 1)...(start + 3) {
                try await response.write(Data("id: \(id)\nevent: tick\ndata: {\"n\":\(id)}\n\n".utf8))
            }
            try await response.end()
        case "/sse-retry":
            // One event, with the reconnection time `ms`.
            let retry = query["ms"] ?? "20"
            try await response.send(headers: [("Content-Type", "text/event-stream")], body: Data("retry: \(retry)\ndata: once\n\n".utf8))
        case "/sse-once":
            // One event with an ID, then, after the reconnection, one without: it keeps that ID.
            switch request.header("Last-Event-ID") {
            // The media type in another case, with a parameter: still an event stream.
            case nil:
                try await response.send(
                    headers: [("Content-Type", "Text/Event-Stream; charset=utf-8")], body: Data("retry: 20\nid: 7\ndata: first\n\n".utf8))
            case "7": try await response.send(headers: [("Content-Type", "text/event-stream")], body: Data("data: second\n\n".utf8))
            default: try await response.send(status: 204)
            }
        case "/sse-reset":
            // An event with an ID, then one that resets the ID (`id` with an empty value): the
            // next connection must then come without a Last-Event-ID, as WHATWG says, and
            // starts over.
            switch request.header("Last-Event-ID") {
            case nil:
                try await response.send(
                    headers: [("Content-Type", "text/event-stream")], body: Data("retry: 20\nid: 7\ndata: first\n\n".utf8))
            case "7":
                try await response.send(headers: [("Content-Type", "text/event-stream")], body: Data("id\ndata: second\n\n".utf8))
            default:
                try await response.send(status: 400, body: Data("Last-Event-ID sent empty".utf8))
            }
        case "/big-stream":
            let count = Int64(query["count"] ?? "") ?? 1 << 30
            try await response.head(status: 200, headers: [("Content-Type", "application/octet-stream")])
            try await stream(0..<count, to: response, dropAfter: nil)
        case "/chunked":
            let count = Int64(query["count"] ?? "") ?? 1024
            try await response.head(status: 200, headers: [("Content-Type", "application/octet-stream")])
            try await stream(0..<count, to: response, dropAfter: nil)
        default:
            try await Routes.standard(request, response)
        }
    }
}
