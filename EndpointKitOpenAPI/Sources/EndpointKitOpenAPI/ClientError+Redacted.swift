import EndpointKit
import Foundation
import OpenAPIRuntime

extension ClientError {
    /// The error in words that are safe to log, as EndpointKit's own errors are written: the
    /// operation ID, the method and URL (user and password, and every query value, as
    /// `REDACTED`; no fragment), the answer's status if one came, the runtime's cause up to the
    /// values it quotes, and the underlying error: EndpointKit's as it describes itself (its URLs
    /// written the same way, a body named by its size only), a `DecodingError` by what went
    /// wrong where (never the value its message may quote), any other as it describes itself.
    /// For example `getBook, GET https://api.example.com/v1/books/1?key=REDACTED (no answer):
    /// Transport threw an error. Request to … failed: …`.
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
        // The runtime writes a cause's values after a colon (a server URL, a body's first bytes).
        let cause = String(causeDescription.prefix { $0 != ":" })
        // The runtime's own error says what the cause says; any other is written as every error
        // of a generated call is.
        let underlying: String? =
            "\(underlyingError)" == causeDescription ? nil : EndpointKitTransport.redactedDescription(of: underlyingError)
        let joined = underlying.map { cause.hasSuffix(".") ? "\(cause) \($0)" : "\(cause): \($0)" } ?? cause
        return "\(operationID)\(target ?? "") (\(answer)): \(joined)"
    }
}
