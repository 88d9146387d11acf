import NIOHTTP1

/// The header fields `AsyncHTTPClientClient` adds to every request (its transport's
/// `defaultFields`), for raw rows that send the same exchange.
public enum SameFields {
    /// `Accept: */*` and EndpointKit's `User-Agent`, as the client sends them.
    public static let headers: HTTPHeaders = ["Accept": "*/*", "User-Agent": "EndpointKit (AsyncHTTPClient)"]
}
