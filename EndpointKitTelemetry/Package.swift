// swift-tools-version:6.0
import PackageDescription

// Logs, metrics and traces for EndpointKit's calls, on swift-log, swift-metrics and
// swift-distributed-tracing: call monitors that work with either client. Its own package, so
// EndpointKit users who do not want these dependencies never resolve them.
let package = Package(
    name: "EndpointKitTelemetry",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "EndpointKitTelemetry", targets: ["EndpointKitTelemetry"]),
    ],
    dependencies: [
        .package(name: "EndpointKit", path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // Test-only: the in-process server, and the second client the monitors are tried with.
        .package(name: "EndpointKitAsyncHTTPClient", path: "../EndpointKitAsyncHTTPClient"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "EndpointKitTelemetry",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        .testTarget(
            name: "EndpointKitTelemetryTests",
            dependencies: [
                "EndpointKitTelemetry",
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitAsyncHTTPClient", package: "EndpointKitAsyncHTTPClient"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                // For @testable bootstrapInternal: a test swaps the global systems after the
                // monitors are made.
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
