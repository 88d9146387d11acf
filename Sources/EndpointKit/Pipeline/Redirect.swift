import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a redirect is followed, as browsers and curl do (RFC 9110, 15.4): 307 and 308 repeat
/// the method and body; 303 turns anything but HEAD into a bodiless GET; 301 and 302 turn POST
/// into GET and repeat other methods. Credentials, cookies and a `Host` set by hand are not
/// carried to another origin, and a `Location` that is not `http` or `https` is refused.
///
/// Every client follows redirects here, in the pipeline, not in its HTTP stack: Foundation on
/// Linux drops the body of a redirected request and sends it without the cookies the redirect
/// set, and one place means one set of rules (and one place that sees each redirect).
/// The session delegate declines every redirect, and ``replay(after:of:)`` makes the next request.
enum Redirect {
    /// How many redirects one call follows, as on Darwin.
    static let limit = 20

    /// Whether a response with `statusCode` may redirect (a 3xx other than 304), before its
    /// head is read for a `Location`.
    static func isRedirect(_ statusCode: Int) -> Bool {
        (300...399).contains(statusCode) && statusCode != 304
    }

    /// What to send after `response`, or `nil` when it is the final answer.
    static func replay(after response: HTTPURLResponse, of outgoing: Outgoing) throws -> Outgoing? {
        guard isRedirect(response.statusCode),
            let location = response.value(forHTTPHeaderField: "Location"),
            let url = URL(string: location, relativeTo: response.url ?? outgoing.request.url)?.absoluteURL
        else { return nil }
        // As curl and browsers: a redirect leads to HTTP only.
        guard url.isHTTP else {
            throw EndpointKitError.redirectRefused(
                url: outgoing.request.url,
                reason: "HTTP \(response.statusCode) points to \(url.scheme ?? "a URL without a scheme"):, not http or https")
        }
        if let problem = InvalidPort.problem(in: url) {
            throw EndpointKitError.redirectRefused(url: outgoing.request.url, reason: "HTTP \(response.statusCode) points to a URL whose \(problem)")
        }
        let next = following(response, to: url, from: outgoing)
        guard !next.carriesBody || outgoing.canReplayBody else {
            throw EndpointKitError.redirectRefused(
                url: outgoing.request.url,
                reason: "HTTP \(response.statusCode) asks to send the body again, but it is a one-shot stream")
        }
        return next
    }

    /// What follows `previous` to `url` after `response`.
    static func following(_ response: HTTPURLResponse, to url: URL, from previous: Outgoing) -> Outgoing {
        var next = previous
        next.request.url = url
        let method = previous.request.httpMethod?.uppercased() ?? "GET"
        switch response.statusCode {
        case 303 where method != "HEAD", 301 where method == "POST", 302 where method == "POST":
            next.request.httpMethod = "GET"
            next.dropBody()
            next.request.setFields(["Content-Type", "Content-Length", "Content-Encoding"].lazy.map { ($0, nil) })
        default:
            break
        }
        if !sameOrigin(previous.request.url, url) {
            // A `Host` set by hand names the first origin's virtual host: the next one is its own.
            next.request.setFields(["Authorization", "Cookie", "Proxy-Authorization", "Host"].lazy.map { ($0, nil) })
        }
        return next
    }

    static func sameOrigin(_ lhs: URL?, _ rhs: URL) -> Bool {
        guard let lhs else { return false }
        return lhs.scheme?.lowercased() == rhs.scheme?.lowercased()
            && lhs.host?.lowercased() == rhs.host?.lowercased() && lhs.port == rhs.port
    }
}
