// swift-tools-version:6.0
import PackageDescription

// Combine publishers for EndpointKit's calls, and Publisher ⇄ AsyncSequence bridges. Apple's
// Combine where it exists; OpenCombine (the same API) on Linux and other platforms, so one
// source serves both. Its own package, so EndpointKit users never resolve OpenCombine.
let package = Package(
    name: "EndpointKitCombine",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "EndpointKitCombine", targets: ["EndpointKitCombine"]),
    ],
    dependencies: [
        .package(name: "EndpointKit", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // Test-only: the in-process HTTP server shared with EndpointKit's tests.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "EndpointKitCombine",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(
                    name: "OpenCombine", package: "OpenCombine",
                    condition: .when(platforms: [.linux, .android, .windows, .wasi, .openbsd])),
            ]),
        .testTarget(
            name: "EndpointKitCombineTests",
            dependencies: [
                "EndpointKitCombine",
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
