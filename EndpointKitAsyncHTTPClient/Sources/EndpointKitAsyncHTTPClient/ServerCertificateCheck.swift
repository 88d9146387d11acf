@_spi(Transport) import EndpointKit
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// Says why a server's certificate failed verification when BoringSSL does not: it reports an
/// expired certificate and one from an authority nobody trusts alike (`CERTIFICATE_VERIFY_FAILED`).
/// One more connection, made only after such a failure, takes the certificate without
/// trusting it (nothing is sent over it) and reads its dates.
enum ServerCertificateCheck {
    /// `failure`, or, when it is an untrusted server certificate that turns out to be out of
    /// date, that cause with the date in words. Gives up after 2 s, or at once when cancelled.
    static func explain(_ failure: TLSFailure, url: URL, group: any EventLoopGroup) async -> TLSFailure {
        guard failure.code == .serverCertificateHasUnknownRoot, !Task.isCancelled, let host = url.host,
            let validity = try? await validity(host: host, port: url.port ?? 443, group: group)
        else { return failure }
        let now = Date()
        if now > validity.notAfter {
            return TLSFailure(code: .serverCertificateHasBadDate, reason: "the server's certificate expired on \(day(validity.notAfter))")
        }
        if now < validity.notBefore {
            return TLSFailure(code: .serverCertificateNotYetValid, reason: "the server's certificate is valid only from \(day(validity.notBefore))")
        }
        return failure
    }

    /// The dates of the certificate `host` presents.
    private static func validity(host: String, port: Int, group: any EventLoopGroup) async throws -> (notBefore: Date, notAfter: Date) {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        let context = try NIOSSLContext(configuration: configuration)
        let serverName = host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host
        let loop = group.next()
        let handshake = loop.makePromise(of: Void.self)
        let expiry = loop.scheduleTask(in: .seconds(2)) { handshake.fail(ChannelError.connectTimeout(.seconds(2))) }
        defer { expiry.cancel() }
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(2))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                    try channel.pipeline.syncOperations.addHandler(HandshakeWaiter(promise: handshake))
                }
            }
            .connect(host: host, port: port).get()
        defer { channel.close(promise: nil) }
        try await handshake.futureResult.get()
        guard let certificate = try await channel.nioSSL_peerCertificate().get() else { throw ChannelError.inputClosed }
        return (Date(timeIntervalSince1970: TimeInterval(certificate.notValidBefore)), Date(timeIntervalSince1970: TimeInterval(certificate.notValidAfter)))
    }

    /// `date` as `2026-11-22 10:00 UTC`.
    private static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }

    /// Completes its promise when the TLS handshake has completed, or fails it when the
    /// connection ends first.
    private final class HandshakeWaiter: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        let promise: EventLoopPromise<Void>

        init(promise: EventLoopPromise<Void>) {
            self.promise = promise
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case TLSUserEvent.handshakeCompleted = event { promise.succeed() }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(error)
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(ChannelError.inputClosed)
            context.fireChannelInactive()
        }
    }
}
