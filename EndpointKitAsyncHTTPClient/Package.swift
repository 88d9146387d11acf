// swift-tools-version:6.0
import PackageDescription

// EndpointKit's client for servers: the same Client protocol over swift-server's
// AsyncHTTPClient. Its own package, so EndpointKit users who don't want NIO never resolve it.
let package = Package(
    name: "EndpointKitAsyncHTTPClient",
    platforms: [.macOS(.v12), .iOS(.v15)],
    products: [
        .library(name: "EndpointKitAsyncHTTPClient", targets: ["EndpointKitAsyncHTTPClient"]),
    ],
    dependencies: [
        .package(name: "EndpointKit", path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
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
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "EndpointKitAsyncHTTPClientTests",
            dependencies: [
                "EndpointKitAsyncHTTPClient",
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
