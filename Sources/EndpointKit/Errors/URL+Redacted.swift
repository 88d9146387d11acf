import Foundation

extension URL {
    /// The URL as it may be written to a log, a trace or an error message: user and password
    /// as `REDACTED:REDACTED@` (OpenTelemetry's form for `url.full`), each query value as
    /// `REDACTED` (a query item without a value, which may itself be a token, as `REDACTED`),
    /// and no fragment. Scheme, host, port, path and query names are kept, so the line still
    /// says which resource was called.
    ///
    /// Every URL in an ``EndpointKitError``'s description, and in EndpointKitTelemetry's logs
    /// and spans, is written this way.
    public var redactedDescription: String {
        if query == nil, user == nil, password == nil, fragment == nil { return absoluteString }
        return rewritten { components in
            components.fragment = nil
            components.percentEncodedQueryItems = components.percentEncodedQueryItems?.map { item in
                item.value == nil
                    ? URLQueryItem(name: "REDACTED", value: nil) : URLQueryItem(name: item.name, value: "REDACTED")
            }
        }
    }

    /// The URL with its user and password written as `REDACTED:REDACTED@`, and the rest as it is.
    var credentialsRedacted: String {
        user == nil && password == nil ? absoluteString : rewritten()
    }

    /// The URL with its user and password, if it has either, written `REDACTED:REDACTED@`, and
    /// then `change` made to its parts; `redacted(_:)` of its text when it cannot be parsed.
    private func rewritten(_ change: (inout URLComponents) -> Void = { _ in }) -> String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            return Self.redacted(absoluteString)
        }
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
            components.percentEncodedUser = "REDACTED"
            components.percentEncodedPassword = "REDACTED"
        }
        change(&components)
        return components.string ?? Self.redacted(absoluteString)
    }

    /// `text` that could not be parsed as a URL, kept to the same promise by hand: cut where a
    /// query (then `?REDACTED`) or a fragment starts, and anything before an `@` in its
    /// authority replaced.
    static func redacted(_ text: String) -> String {
        let end = text.firstIndex { $0 == "?" || $0 == "#" } ?? text.endIndex
        var kept = text[..<end]
        let authorityStart = kept.range(of: "://")?.upperBound ?? kept.startIndex
        let authorityEnd = kept[authorityStart...].firstIndex(of: "/") ?? kept.endIndex
        if let at = kept[authorityStart..<authorityEnd].lastIndex(of: "@") {
            kept.replaceSubrange(authorityStart...at, with: "REDACTED:REDACTED@")
        }
        return end < text.endIndex && text[end] == "?" ? kept + "?REDACTED" : String(kept)
    }
}
