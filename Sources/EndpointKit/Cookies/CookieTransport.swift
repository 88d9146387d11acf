import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a ``CookieStore`` meets each request `URLSessionClient` sends (every attempt and
/// redirect): its cookies are added to the request, and those the answer sets are kept. Every
/// store on Linux; elsewhere an `HTTPCookieStorage` is handed to the session instead (see
/// `URLSessionClient.cookieStoreKeptByTheClient(_:settingUp:)`).
struct CookieTransport: Transport {
    let store: any CookieStore
    let transport: any Transport

    var isOpen: Bool { transport.isOpen }

    nonisolated(nonsending) func send(
        _ outgoing: Outgoing, into file: DownloadFile?, timeout: TimeInterval?, bodyLimit: Int,
        progress: ProgressSink?
    ) async throws -> ReceivedResponse {
        let received = try await transport.send(withCookies(outgoing), into: file, timeout: timeout, bodyLimit: bodyLimit, progress: progress)
        keep(received.response)
        return received
    }

    nonisolated(nonsending) func stream(_ outgoing: Outgoing, timeout: TimeInterval?) async throws -> ResponseStream {
        let stream = try await transport.stream(withCookies(outgoing), timeout: timeout)
        keep(stream.response)
        return stream
    }

    /// `outgoing` with the store's cookies for its URL, unless the request sets its own
    /// `Cookie` field or does not handle cookies.
    private func withCookies(_ outgoing: Outgoing) -> Outgoing {
        guard let url = outgoing.request.url, outgoing.request.httpShouldHandleCookies,
            outgoing.request.field(named: "Cookie") == nil
        else { return outgoing }
        let cookies = store.cookiesToSend(to: url)
        guard !cookies.isEmpty else { return outgoing }
        var outgoing = outgoing
        outgoing.request.setFields(HTTPCookie.requestHeaderFields(with: cookies).lazy.map { ($0.key, $0.value) })
        return outgoing
    }

    /// Keeps the cookies `response` sets. Foundation joins repeated `Set-Cookie` fields with
    /// commas; they are split again where a comma is followed by `name=` (a date's comma, as in
    /// `Expires=Wed, 21 Oct 2026`, is followed by a day number and a space).
    private func keep(_ response: HTTPURLResponse) {
        guard let url = response.url, let joined = response.value(forHTTPHeaderField: "Set-Cookie") else { return }
        store.keepCookies(setBy: Self.fields(joined), from: url)
    }

    /// The `Set-Cookie` fields Foundation joined into `joined`.
    static func fields(_ joined: String) -> [String] {
        var fields: [String] = []
        var current = Substring()
        var rest = Substring(joined)
        while let comma = rest.firstIndex(of: ",") {
            let after = rest[rest.index(after: comma)...].drop(while: { $0 == " " })
            current += rest[..<comma]
            if startsWithCookieName(after) {
                fields.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current += ","
            }
            rest = rest[rest.index(after: comma)...]
        }
        current += rest
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty { fields.append(last) }
        return fields
    }

    /// Whether `text` starts with a cookie name followed by `=`.
    private static func startsWithCookieName(_ text: Substring) -> Bool {
        guard let equals = text.firstIndex(of: "=") else { return false }
        let name = text[..<equals]
        return !name.isEmpty && !name.contains(where: { $0 == ";" || $0 == "," || $0 == " " })
    }
}
