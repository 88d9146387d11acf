import NIOCore
import NIOSSL

/// A self-signed certificate for `localhost` and 127.0.0.1 (valid until 2126), made once with
/// `openssl req -x509 -newkey ec`, and its key: the TLS test server uses it, the client trusts it.
enum TestCertificate {
    static let certificatePEM = """
-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUE6jsavRlXiPyhu5ZQssYpuS8pA4wCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMjEwMjMyNVoYDzIxMjYxMDI5
MTAyMzI1WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAASVp8Avt4sCVAX5F4ATvCLGmrU3BOHtHX9cGLUYiYQ5IsaloJQjrUwF
oqvkXCL6fojbgLXVt/AcMdkVh/WpadJ2o28wbTAdBgNVHQ4EFgQUYvmHwRtrgncM
BMJbVs1KZ4oeM6UwHwYDVR0jBBgwFoAUYvmHwRtrgncMBMJbVs1KZ4oeM6UwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDSAAwRQIhAIh1fsulbAtRjXzUOXUPz1L/b1vOtw8l1NczkbpxjNXpAiBY
qQ3xPCHJbIshxb6vRuBzr2+9vAe+CeQbK+5Jl/bmxw==
-----END CERTIFICATE-----
"""

    static let privateKeyPEM = """
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg+grblHeO6b5mqND6
17/0JwifyZgDoDqNCGt8eAOssjuhRANCAASVp8Avt4sCVAX5F4ATvCLGmrU3BOHt
HX9cGLUYiYQ5IsaloJQjrUwFoqvkXCL6fojbgLXVt/AcMdkVh/WpadJ2
-----END PRIVATE KEY-----
"""

    /// Adds a TLS server handler with this certificate to a test server connection.
    static let serverTLS: @Sendable (any Channel) throws -> Void = { channel in
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)))
        let context = try NIOSSLContext(configuration: configuration)
        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
    }

    /// A client configuration that trusts only this certificate.
    static var clientTLS: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates((try? NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))) ?? [])
        return configuration
    }
}
