import AsyncHTTPClient
@_spi(Transport) import EndpointKit
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// What AsyncHTTPClient hands over, as EndpointKit reads it: a response head, its version, a
/// body buffer as `Data`.
extension AsyncHTTPClientTransport {
    /// A response head, its fields in the order they came.
    static func head(status: HTTPResponseStatus, version: HTTPVersion, headers: HTTPHeaders, url: URL) -> ResponseHead {
        ResponseHead(
            url: url, statusCode: Int(status.code), version: versionText(version),
            fields: headers.map { (name: $0.name, value: $0.value) })
    }

    /// A response head whose Foundation response is built from `headers` only if asked for (a
    /// call whose endpoint reads only the status never builds one); its fields are not listed
    /// apart, as ``head(status:version:headers:url:)`` lists them for a stream.
    static func deferredHead(status: HTTPResponseStatus, version: HTTPVersion, headers: HTTPHeaders, url: URL) -> ResponseHead {
        let (statusCode, version) = (Int(status.code), versionText(version))
        return ResponseHead(statusCode: statusCode) {
            ResponseHead.response(url: url, statusCode: statusCode, version: version, fields: headers)
        }
    }

    /// `HTTP/1.1` and the like; the common versions are written without building a string.
    static func versionText(_ version: HTTPVersion) -> String {
        switch (version.major, version.minor) {
        case (1, 1): "HTTP/1.1"
        case (2, 0): "HTTP/2.0"
        case (1, 0): "HTTP/1.0"
        default: "HTTP/\(version.major).\(version.minor)"
        }
    }

    /// The buffer's bytes as `Data`. From 16 KiB they are shared, not copied: the `Data` keeps
    /// the buffer's storage (a read buffer of at most 64 KiB, for a streamed chunk), and a
    /// write to the buffer copies it first. NIO's own choice copies up to 256 KiB, which cost a
    /// streamed 1 MiB body about 7 % of its CPU in copies.
    static func data(_ buffer: ByteBuffer) -> Data {
        let strategy: ByteBuffer.ByteTransferStrategy = buffer.readableBytes >= 16 << 10 ? .noCopy : .copy
        return buffer.getData(at: buffer.readerIndex, length: buffer.readableBytes, byteTransferStrategy: strategy) ?? Data()
    }
}
