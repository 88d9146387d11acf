import Foundation

/// What an ``UploadEndpoint`` sends as its request body.
public enum UploadEndpointBody: Sendable {
    /// Bytes in memory.
    case data(Data)
    /// A file, read from disk as it is sent (never loaded whole); its size is the `Content-Length`.
    case file(URL)
    /// A stream made by the closure, sent with chunked transfer encoding. The closure is called
    /// again whenever the body must be sent again (a 307/308 redirect, a retry), so it must
    /// make a fresh stream each time.
    case stream(@Sendable () throws -> InputStream)
    /// A `multipart/form-data` body. File parts are copied from disk in chunks into a temporary
    /// file, sent with its `Content-Length`, and deleted afterwards; the `Content-Type` header
    /// (with the boundary) is set for you.
    case multipart(MultipartFormData)
}
