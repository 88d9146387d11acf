// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "EndpointKit",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "EndpointKit", targets: ["EndpointKit"]),
        // Test doubles for users' own tests: a stub Client. No dependencies either.
        .library(name: "EndpointKitTesting", targets: ["EndpointKitTesting"]),
    ],
    dependencies: [
        // Test-only: the in-process HTTP server the tests run against. Library users never build it.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(name: "EndpointKit"),
        .target(name: "EndpointKitTesting", dependencies: ["EndpointKit"]),
        .testTarget(
            name: "EndpointKitTests",
            dependencies: [
                "EndpointKit", "EndpointKitTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
