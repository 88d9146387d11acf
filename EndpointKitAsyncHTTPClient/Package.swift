// swift-tools-version:6.0
import PackageDescription

// EndpointKit's client for servers: the same Client protocol over swift-server's
// AsyncHTTPClient. Its own package, so EndpointKit users who don't want NIO never resolve it.
let package = Package(
    name: "EndpointKitAsyncHTTPClient",
    platforms: [.macOS(.v12), .iOS(.v15)],
    products: [
        .library(name: "EndpointKitAsyncHTTPClient", targets: ["EndpointKitAsyncHTTPClient"]),
        // The client as a swift-service-lifecycle Service: a ServiceGroup shuts it down gracefully.
        .library(name: "EndpointKitServiceLifecycle", targets: ["EndpointKitServiceLifecycle"]),
    ],
    dependencies: [
        .package(name: "EndpointKit", path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // AsyncHTTPClient's own decompressor, for its errors' types.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.38.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Test-only: certificates made by the TLS tests (a private CA, expired and misnamed
        // servers, client certificates).
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.3.0"),
    ],
    targets: [
        .target(
            name: "EndpointKitAsyncHTTPClient",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // For its errors' types: a stream an HTTP/2 server closed or refused.
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "EndpointKitServiceLifecycle",
            dependencies: [
                "EndpointKitAsyncHTTPClient",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .testTarget(
            name: "EndpointKitAsyncHTTPClientTests",
            dependencies: [
                "EndpointKitAsyncHTTPClient",
                "EndpointKitServiceLifecycle",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
