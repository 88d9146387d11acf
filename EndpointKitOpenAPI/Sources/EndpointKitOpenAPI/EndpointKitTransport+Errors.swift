@_spi(Transport) import EndpointKit
import Foundation
import OpenAPIRuntime

extension EndpointKitTransport {
    /// Any error a generated client's call may throw, in words that are safe to log:
    /// - a `ClientError` (no answer, or one that could not be read) as its
    ///   ``OpenAPIRuntime/ClientError/redactedDescription``;
    /// - the error of an accessor such as `.ok` or `.json` that found another answer than it
    ///   expects, by the answer it found: `Unexpected response: expected ok, got notFound`, or
    ///   `got an undocumented 503`. Its `description`, the runtime's own, writes the whole
    ///   answer as it is: every header field of an undocumented one (a `Set-Cookie` among them)
    ///   and the values of a documented one's headers;
    /// - EndpointKit's own errors, and a `DecodingError` by what went wrong where;
    /// - any other error as it describes itself.
    public static func redactedDescription(of error: any Error) -> String {
        switch error {
        case let error as ClientError: error.redactedDescription
        case let error as EndpointKitError: error.description
        case let error as DecodingError: DecodingFailure.words(for: error)
        default: unexpectedAnswer(error) ?? "\(error)"
        }
    }

    /// The words for the runtime's error of an accessor that found another answer, or `nil` if
    /// `error` is not one. The runtime's error type is not public: it is read by reflection.
    private static func unexpectedAnswer(_ error: any Error) -> String? {
        let mirror = Mirror(reflecting: error)
        guard mirror.displayStyle == .enum, String(reflecting: type(of: error)).hasPrefix("OpenAPIRuntime."),
            let found = mirror.children.first
        else { return nil }
        let values = Mirror(reflecting: found.value).children.map(\.value)
        guard values.count == 2, let expected = values[0] as? String else { return nil }
        switch found.label {
        case "unexpectedResponseStatus": return "Unexpected response: expected \(expected), got \(caseName(of: values[1]))"
        case "unexpectedResponseBody": return "Unexpected response body: expected \(expected), got \(caseName(of: values[1]))"
        default: return nil
        }
    }

    /// The case of a generated output or body (`notFound`, `plainText`), with the status of an
    /// undocumented answer; never its values.
    private static func caseName(of value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum else { return "another answer" }
        guard let found = mirror.children.first, let name = found.label else { return "\(value)" }
        let status = Mirror(reflecting: found.value).children.first { $0.label == "statusCode" }?.value as? Int
        return status.map { "an \(name) \($0)" } ?? name
    }
}
