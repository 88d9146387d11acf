import BookKit
import EndpointKit
import EndpointKitOpenAPI
import OpenAPIRuntime

/// Prints results as text or JSON, notes and progress to standard error, and errors as one
/// clear sentence.
struct Output: Sendable {
    let json: Bool

    /// Prints `value` as JSON, or `text` for people.
    func print<T: Encodable>(_ value: T, text: () -> String) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(value)) ?? Data("null".utf8)
            Swift.print(String(decoding: data, as: UTF8.self))
        } else {
            Swift.print(text())
        }
    }

    /// A line for people, on standard error so `--json` output stays clean.
    func note(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// An error line.
    func error(_ line: String) {
        note("error: \(line)")
    }

    /// One sentence for `error`, saying what to do where that helps.
    static func message(for error: any Error) -> String {
        switch error {
        case let error as APIError:
            return "the server said \(error.status.map { "\($0)" } ?? "no"): \(error.error)"
        case EndpointKitError.transportFailed(let url, let underlying):
            let host = url.flatMap { $0.host }.map { "\($0)\(url?.port.map { ":\($0)" } ?? "")" } ?? "the server"
            let reason = (underlying as? URLError).map(describe) ?? "\(underlying)"
            return "cannot reach \(host): \(reason). Check --base-url, or leave it out to use the demo server."
        case let error as EndpointKitError:
            return error.description
        case let error as ClientError:
            // A generated call's: the client's own error when it is one; never the runtime's
            // description, which writes the operation's input and header fields as they are.
            let underlying = error.underlyingError
            return underlying is EndpointKitError || underlying is APIError ? message(for: underlying) : error.redactedDescription
        case let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile:
            return "no such file: \(error.userInfo[NSFilePathErrorKey] ?? "")"
        default:
            // An `.ok` or `.json` of a generated call that found another answer: named, not
            // written with its header fields as the runtime writes it.
            return EndpointKitTransport.redactedDescription(of: error)
        }
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: "connection refused"
        case .cannotFindHost, .dnsLookupFailed: "unknown host"
        case .timedOut: "timed out"
        case .notConnectedToInternet: "no network"
        case .networkConnectionLost: "the connection was lost"
        case .secureConnectionFailed, .serverCertificateUntrusted: "TLS failed"
        default: error.localizedDescription
        }
    }
}
