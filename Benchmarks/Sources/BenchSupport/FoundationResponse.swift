import Foundation
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Foundation response the Endpoint API hands around, as the raw rows of `Bench` and
/// `Instructions` build it from AsyncHTTPClient's head (what `AsyncHTTPClientClient` does too).
public enum FoundationResponse {
    /// A response to `url` with `status` and `headers`, or `nil` if Foundation refuses them.
    public static func make(_ status: HTTPResponseStatus, _ headers: HTTPHeaders, url: URL) -> HTTPURLResponse? {
        var fields = [String: String](minimumCapacity: headers.count)
        for header in headers { fields[header.name] = header.value }
        return HTTPURLResponse(url: url, statusCode: Int(status.code), httpVersion: "HTTP/1.1", headerFields: fields)
    }
}
