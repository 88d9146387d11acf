// `import EndpointKitAsyncHTTPClient` brings along what its initialisers take, so setting up
// TLS, mutual TLS, a borrowed `HTTPClient` or the HTTP version needs no other import:
// NIOSSL's `TLSConfiguration`, `NIOSSLCertificate`, `NIOSSLPrivateKey`, and AsyncHTTPClient's
// `HTTPClient`. (Neither module re-exports anything, so no name of NIO's HTTP module comes along.)
@_exported import AsyncHTTPClient
@_exported import EndpointKit
@_exported import NIOSSL
