import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// The request as a `curl` command line, for logs and bug reports: method, URL, headers
    /// and body, each quoted for a POSIX shell. A body that is not UTF-8 text, or comes from a
    /// stream, is shown as a comment with its size instead.
    ///
    /// Headers named in `redacting` (case-insensitive; `Authorization`, `Proxy-Authorization`
    /// and `Cookie` by default) show `<redacted>` instead of their value. While `Authorization`
    /// is among them, so are a user and password in the URL (the clients send them as
    /// `Authorization`): they are written `REDACTED:REDACTED@`. The rest of the URL, the query
    /// too, is shown as it is, so that the command repeats the call.
    public func curlDescription(redacting redacted: Set<String> = ["authorization", "proxy-authorization", "cookie"]) -> String {
        var parts = ["curl"]
        let method = httpMethod ?? "GET"
        if method != "GET" { parts.append("-X \(Self.quoted(method))") }
        let hidden = Set(redacted.map { $0.lowercased() })
        for (name, value) in (allHTTPHeaderFields ?? [:]).sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            let shown = hidden.contains(name.lowercased()) ? "<redacted>" : value
            parts.append("-H \(Self.quoted("\(name): \(shown)"))")
        }
        var note: String?
        if let body = httpBody, !body.isEmpty {
            if let text = String(data: body, encoding: .utf8) {
                parts.append("--data-binary \(Self.quoted(text))")
            } else {
                note = "# body: \(body.count) bytes of binary data"
            }
        } else if httpBodyStream != nil {
            note = "# body: a stream"
        }
        let address = hidden.contains("authorization") ? url?.credentialsRedacted : url?.absoluteString
        parts.append(Self.quoted(address ?? ""))
        return parts.joined(separator: " ") + (note.map { "\n\($0)" } ?? "")
    }

    /// `value` in single quotes, with each `'` written as `'\''`.
    private static func quoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
