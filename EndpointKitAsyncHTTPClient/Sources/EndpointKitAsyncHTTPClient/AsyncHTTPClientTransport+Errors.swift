import AsyncHTTPClient
@_spi(Transport) import EndpointKit
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOHTTPCompression
import NIOPosix
import NIOSSL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension AsyncHTTPClientTransport {
    /// `error`, or, when AsyncHTTPClient refused one of `outgoing`'s header fields (it checks
    /// them as ``EndpointKit/InvalidHeaderField`` does, before anything is sent, and names the
    /// values), EndpointKit's error for the field, which names the field and not its value (a
    /// value may be a credential). The fields are gone through again only then: a call that
    /// sends has them checked once.
    static func namingField(_ error: any Error, of outgoing: Outgoing) -> any Error {
        guard error is HTTPClientError else { return error }
        do {
            try InvalidHeaderField.checkFields(of: outgoing.request)
        } catch let named {
            return named
        }
        return error
    }

    /// AsyncHTTPClient's and NIO's errors, as the `URLError`s `URLSessionClient` reports. A
    /// TLS failure names its cause (``EndpointKit/TLSFailure``); a server certificate that
    /// failed verification is looked at again (``ServerCertificateCheck``) to tell an expired
    /// one from an untrusted one, which BoringSSL reports alike.
    func translate(_ error: any Error, url: URL) async -> any Error {
        guard let tls = Self.tlsFailure(error) else { return translated(error, url: url) }
        let failure = await ServerCertificateCheck.explain(tls, url: url, group: httpClient.eventLoopGroup)
        return EndpointKitError.transportFailed(url: url, underlying: failure.error(url: url, detail: Self.tlsDetail(error), underlying: error))
    }

    /// ``translate(_:url:)`` without a second look at certificates; a request that the
    /// client's shutdown cut short (its grace period over) fails with `clientInvalidated`, not
    /// as if its caller had cancelled it, and so does one that found the `HTTPClient` shut
    /// down (a borrowed one, by its owner).
    func translated(_ error: any Error, url: URL) -> any Error {
        if let error = error as? HTTPClientError, error == .alreadyShutdown { return EndpointKitError.clientInvalidated }
        if !calls.isOpen, !Task.isCancelled, let error = error as? HTTPClientError, error == .cancelled {
            return EndpointKitError.clientInvalidated
        }
        return Self.translate(error, url: url)
    }

    /// The part of ``translate(_:url:)`` that needs no client: every error, TLS failures named
    /// by what the TLS library said alone.
    static func translate(_ error: any Error, url: URL) -> any Error {
        if error is CancellationError || error is EndpointKitError { return error }
        if let failure = error as? BodyChunks.StreamFailure { return failure.underlying }
        // AsyncHTTPClient also says `cancelled` of a request it dropped unsent because the
        // HTTP/2 connection it was given was closing: a lost connection, since no one cancelled.
        if let error = error as? HTTPClientError, error == .cancelled, Task.isCancelled { return CancellationError() }
        if let tls = tlsFailure(error) {
            return EndpointKitError.transportFailed(url: url, underlying: tls.error(url: url, detail: tlsDetail(error), underlying: error))
        }
        let text = String(describing: error).lowercased()
        let code: URLError.Code
        if let error = error as? HTTPClientError, error == .remoteConnectionClosed || error == .cancelled {
            code = .networkConnectionLost
        } else if let error = error as? HTTPParserError, error == .invalidEOFState {
            code = .networkConnectionLost
        } else if case NIOSSLError.uncleanShutdown = error {
            code = .networkConnectionLost
        } else if let error = error as? HTTPClientError, error == .connectTimeout || error == .readTimeout || error == .deadlineExceeded {
            code = .timedOut
        } else if case ChannelError.connectTimeout = error {
            code = .timedOut
        } else if let error = error as? HTTPClientError, error == .unsupportedScheme(url.scheme ?? "") {
            code = .unsupportedURL
        } else if let error = error as? HTTPParserError, error != .invalidEOFState {
            code = .cannotParseResponse
        } else if let error = error as? HTTPClientError, error == .emptyHost {
            code = .badURL
        } else if decompressionFailure(error) != nil {
            code = .cannotDecodeContentData
        } else if error is NIOHTTPClientUpgradeError {
            code = .badServerResponse
        } else if text.contains("refused") || socketError(error).map({ unreachable.contains($0.errnoCode) }) == true {
            code = .cannotConnectToHost
        } else if text.contains("dns") || text.contains("resolve") || text.contains("unknown host") || text.contains("lookup") {
            code = .cannotFindHost
        } else if text.contains("reset") || text.contains("eof") || text.contains("closed") || text.contains("broken pipe") {
            code = .networkConnectionLost
        } else if text.contains("ssl") || text.contains("tls") || text.contains("certificate") {
            code = .secureConnectionFailed
        } else {
            code = .unknown
        }
        let urlError = URLError(
            code, userInfo: [NSLocalizedDescriptionKey: sentence(code, url: url, error: error), NSURLErrorFailingURLErrorKey: url, NSUnderlyingErrorKey: error as NSError])
        return EndpointKitError.transportFailed(url: url, underlying: urlError)
    }

    /// What went wrong, in words as libcurl's for `URLSessionClient`: the host and port, and
    /// what the system or AsyncHTTPClient said (never a header's value or a URL's query).
    private static func sentence(_ code: URLError.Code, url: URL, error: any Error) -> String {
        if code == .cannotFindHost { return "Could not resolve host: \(url.host ?? "")" }
        if code == .unsupportedURL { return "unsupported URL: AsyncHTTPClient speaks http and https, not \(url.scheme ?? "this")" }
        if code == .badURL { return "HTTP URL must have a host" }
        let place = "\(url.host ?? "the server") port \(url.effectivePort)"
        let reason = reason(error)
        return switch code {
        case .cannotConnectToHost: "Could not connect to \(place): \(reason)"
        case .networkConnectionLost: "The connection to \(place) was lost: \(reason)"
        case .timedOut: "Timed out talking to \(place): \(reason)"
        case .cannotDecodeContentData: "The body from \(place) could not be decoded as its Content-Encoding says: \(reason)"
        case .cannotParseResponse: "The answer from \(place) is not valid HTTP: \(reason)"
        case .badServerResponse: "The server at \(place) did not accept the WebSocket: \(reason)"
        default: "The exchange with \(place) failed: \(reason)"
        }
    }

    /// The system's words for a failed socket call, AsyncHTTPClient's short ones for its own
    /// errors (whose full descriptions can carry header values), or NIO's error's name.
    private static func reason(_ error: any Error) -> String {
        if let socket = socketError(error) { return String(cString: strerror(socket.errnoCode)) }
        if let error = error as? HTTPClientError, error == .cancelled { return "it was closing, and the request was not sent on it" }
        if let error = error as? HTTPClientError { return error.shortDescription }
        if let error = error as? NIOHTTP2Errors.StreamClosed { return "its HTTP/2 stream was closed before the answer (\(error.errorCode))" }
        if let failure = decompressionFailure(error) { return failure }
        if let error = error as? NIOHTTPClientUpgradeError { return upgradeFailure(error) }
        if let error = error as? HTTPParserError, error == .invalidEOFState { return "the server closed it before the answer was complete" }
        if error is HTTPParserError || error is ChannelError { return String(describing: error) }
        if case NIOSSLError.uncleanShutdown = error {
            // RFC 9112 (9.8): a body that runs to the close is whole only if TLS was closed properly.
            return "the server closed it without ending TLS (no close_notify), so a body sent until the close may be cut short"
        }
        if error is NIOSSLError, String(describing: error).contains("handshake") {
            return "the server closed it during the TLS handshake (\(tlsDetail(error)))"
        }
        return String(describing: type(of: error))
    }

    /// The failed socket call in `error`: its own, or the first connection attempt's of a
    /// connection NIO could not make.
    private static func socketError(_ error: any Error) -> IOError? {
        (error as? IOError) ?? ((error as? NIOConnectionError)?.connectionErrors.first?.error as? IOError)
    }

    /// What a connection's socket reports when there is no way to the server: no route to its
    /// host or network, or either down. NIO words them as a connection reset ("connection reset
    /// (error set)"), but no connection was made, so nothing was sent.
    private static let unreachable: Set<Int32> = [EHOSTUNREACH, ENETUNREACH, EHOSTDOWN, ENETDOWN]

    /// Why NIO did not take a 101 as the WebSocket asked for (RFC 6455, 4.1).
    private static func upgradeFailure(_ error: NIOHTTPClientUpgradeError) -> String {
        switch error {
        case .upgraderDeniedUpgrade: "its 101 has no Sec-WebSocket-Accept that answers the key sent"
        case .responseProtocolNotFound: "its 101 switches to another protocol than websocket"
        default: "its 101 came out of order (\(error))"
        }
    }

    /// What went wrong in AsyncHTTPClient's decompressor, when `error` is its.
    private static func decompressionFailure(_ error: any Error) -> String? {
        switch error {
        case NIOHTTPDecompression.DecompressionError.inflationError(let status):
            // zlib's Z_DATA_ERROR, as for `deflate` sent raw: RFC 9110 (8.4.1.2) names the zlib format.
            "zlib stopped with error \(status)" + (status == -3 ? " (a deflate body must be in the zlib format; some servers send it raw)" : "")
        case NIOHTTPDecompression.DecompressionError.initializationError(let status): "zlib could not start (error \(status))"
        case NIOHTTPDecompression.DecompressionError.limit: "it decompresses past the HTTPClient's limit"
        case let extra as NIOHTTPDecompression.ExtraDecompressionError:
            extra == .truncatedData ? "it ends before its compressed data does" : "bytes follow its compressed data"
        default: nil
        }
    }

    /// The cause of a failed handshake, when `error` is NIOSSL's.
    static func tlsFailure(_ error: any Error) -> TLSFailure? {
        guard error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError else { return nil }
        return TLSFailure(message: String(describing: error))
    }

    /// What NIOSSL said, short: BoringSSL's reason codes (`CERTIFICATE_VERIFY_FAILED`), or
    /// NIOSSL's own description.
    static func tlsDetail(_ error: any Error) -> String {
        let text = String(describing: error)
        let reasons = text.components(separatedBy: "OPENSSL_internal:").dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }
        return reasons.isEmpty ? text : reasons.joined(separator: ", ")
    }
}
