import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a redirect is followed, as browsers and curl do (RFC 9110, 15.4):
/// 307 and 308 repeat the method and body (Foundation on Linux drops the body);
/// 303 turns anything but HEAD into a bodiless GET; 301 and 302 turn POST into GET.
/// Credentials and cookies are not carried to another origin.
enum Redirect {
    static func request(
        following response: HTTPURLResponse, to proposed: URLRequest, from previous: URLRequest
    ) -> URLRequest? {
        guard let url = proposed.url else { return nil }
        var next = previous
        next.url = url
        let method = previous.httpMethod?.uppercased() ?? "GET"
        switch response.statusCode {
        case 307, 308:
            // A stream body was consumed by the first attempt and cannot be sent again; deliver
            // the redirect response itself rather than sending an empty body.
            if previous.httpBodyStream != nil { return nil }
        case 303 where method != "HEAD", 301 where method == "POST", 302 where method == "POST":
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding"] {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        default:
            break
        }
        if !sameOrigin(previous.url, url) {
            for name in ["Authorization", "Cookie", "Proxy-Authorization"] {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        return next
    }

    private static func sameOrigin(_ lhs: URL?, _ rhs: URL) -> Bool {
        guard let lhs else { return false }
        return lhs.scheme?.lowercased() == rhs.scheme?.lowercased()
            && lhs.host?.lowercased() == rhs.host?.lowercased() && lhs.port == rhs.port
    }
}
