import Foundation
import NIOHTTP1

extension HTTPHeaders {
    /// Adds the user and password of `url` (`http://user:pass@host/`) as Basic credentials,
    /// as libcurl (and so `URLSessionClient`) sends them, unless there is an `Authorization`
    /// field already. AsyncHTTPClient itself ignores a URL's user and password.
    mutating func addCredentials(of url: URL) {
        guard url.user != nil, !contains(name: "Authorization"),
            let parts = URLComponents(url: url, resolvingAgainstBaseURL: true), let user = parts.user
        else { return }
        // URLComponents gives both percent-decoded (`URL.password` does not, on Linux).
        let credentials = Data("\(user):\(parts.password ?? "")".utf8).base64EncodedString()
        add(name: "Authorization", value: "Basic " + credentials)
    }
}
