import EndpointKit
import Foundation
import OpenAPIRuntime

extension ClientError {
    /// The error in words that are safe to log, as EndpointKit's own errors are written: the
    /// operation ID, the method and URL (user and password, and every query value, as
    /// `REDACTED`; no fragment), the answer's status if one came, the runtime's cause, and the
    /// underlying error as it describes itself (EndpointKit's errors write their URLs the same
    /// way and name a body by its size only), for example
    /// `getBook, GET https://api.example.com/v1/books/1?key=REDACTED (no answer): Transport threw
    /// an error. Request to … failed: …`.
    ///
    /// The error's `description`, OpenAPIRuntime's own, writes everything the runtime holds as
    /// it is: the operation's input (request body values and header parameters among it), the
    /// header fields of the request and of the answer (a `Set-Cookie` among them), and the
    /// server URL, with any user, password and query it carries. Log this instead.
    public var redactedDescription: String {
        let target = request.map { request in
            let url = baseURL.map { OperationEndpoint.target(of: request, on: $0) } ?? request.path ?? "/"
            return ", \(request.method.rawValue) \(URL(string: url)?.redactedDescription ?? "<a URL that does not parse>")"
        }
        let answer = response.map { "HTTP \($0.status.code)" } ?? "no answer"
        return "\(operationID)\(target ?? "") (\(answer)): \(causeDescription) \(underlyingError)"
    }
}
