import Foundation

/// What an ``UploadEndpoint`` sends as its request body.
public enum UploadEndpointBody: Sendable {
    /// Bytes in memory.
    case data(Data)
    /// A file, read from disk as it is sent. On Apple platforms its size is sent as the
    /// `Content-Length`; on Linux a file up to 8 MiB is sent from memory with its length and a
    /// larger one with chunked transfer encoding (see Linux notes), so memory stays flat.
    case file(URL)
    /// A stream made by the closure, sent with chunked transfer encoding. The closure is called
    /// again whenever the body must be sent again (a 307/308 redirect, a retry), so it must
    /// make a fresh stream each time.
    case stream(@Sendable () throws -> InputStream)
    /// A body written by a producer as it is sent (see ``ProducedBody`` for how each client
    /// sends it).
    case produced(ProducedBody)
    /// A `multipart/form-data` body. File parts are copied from disk in chunks into a temporary
    /// file, sent with its `Content-Length`, and deleted afterwards; the `Content-Type` header
    /// (with the boundary) is set for you.
    case multipart(MultipartFormData)
}
