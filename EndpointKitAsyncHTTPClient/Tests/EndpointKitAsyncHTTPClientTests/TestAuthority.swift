import Crypto
import Foundation
import NIOCore
import NIOSSL
import SwiftASN1
import X509

/// A certificate authority made by the test, and the certificates it issues: servers for
/// `localhost` and 127.0.0.1 (valid, expired, for another name) and clients, so each way a TLS
/// handshake fails can be met for real.
struct TestAuthority: Sendable {
    /// A certificate and its private key, as NIOSSL takes them.
    struct Identity: Sendable {
        let certificate: NIOSSLCertificate
        let key: NIOSSLPrivateKey
    }

    let name: String
    let certificate: NIOSSLCertificate
    private let key: P256.Signing.PrivateKey
    private let subject: DistinguishedName

    init(name: String) throws {
        self.name = name
        key = P256.Signing.PrivateKey()
        subject = try DistinguishedName { CommonName(name) }
        let root = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: Date() - 3600, notValidAfter: Date() + 86400 * 3650, issuer: subject, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(key))
        certificate = try Self.nio(root)
    }

    /// A server certificate for `names` (host names, or IPv4 addresses), valid from `from` to `until`.
    func server(names: [String] = ["localhost", "127.0.0.1"], from: Date = Date() - 3600, until: Date = Date() + 86400) throws -> Identity {
        try issue(commonName: names.first ?? "server", names: names, usage: .serverAuth, from: from, until: until)
    }

    /// A client certificate whose subject is `commonName`.
    func client(_ commonName: String) throws -> Identity {
        try issue(commonName: commonName, names: [], usage: .clientAuth, from: Date() - 3600, until: Date() + 86400)
    }

    private func issue(
        commonName: String, names: [String], usage: ExtendedKeyUsage.Usage, from: Date, until: Date
    ) throws -> Identity {
        let leafKey = P256.Signing.PrivateKey()
        let alternativeNames = names.map { name -> GeneralName in
            let octets = name.split(separator: ".").compactMap { UInt8($0) }
            return octets.count == 4 ? .ipAddress(ASN1OctetString(contentBytes: ArraySlice(octets))) : .dnsName(name)
        }
        let leaf = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(leafKey.publicKey),
            notValidBefore: from, notValidAfter: until, issuer: subject, subject: try DistinguishedName { CommonName(commonName) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                try ExtendedKeyUsage([usage])
                SubjectAlternativeNames(alternativeNames)
            },
            issuerPrivateKey: .init(key))
        return Identity(certificate: try Self.nio(leaf), key: try NIOSSLPrivateKey(bytes: Array(leafKey.pemRepresentation.utf8), format: .pem))
    }

    private static func nio(_ certificate: Certificate) throws -> NIOSSLCertificate {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
    }

    /// A client TLS configuration that trusts this authority alone, presenting `identity` if given.
    func clientTLS(presenting identity: Identity? = nil) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates([certificate])
        if let identity {
            configuration.certificateChain = [.certificate(identity.certificate)]
            configuration.privateKey = .privateKey(identity.key)
        }
        return configuration
    }

    /// A TLS handler for the test server presenting `identity`; with `clientsOf`, the server
    /// asks for a client certificate and accepts only one issued by that authority.
    static func serverTLS(
        _ identity: Identity, clientsOf: TestAuthority? = nil, maximumVersion: TLSVersion? = nil
    ) -> @Sendable (any Channel) throws -> Void {
        { channel in
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(identity.certificate)], privateKey: .privateKey(identity.key))
            if let clientsOf {
                configuration.certificateVerification = .noHostnameVerification
                configuration.trustRoots = .certificates([clientsOf.certificate])
            }
            configuration.maximumTLSVersion = maximumVersion
            let context = try NIOSSLContext(configuration: configuration)
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
        }
    }
}
