// swift-tools-version:6.0
import PackageDescription

// Benchmarks, as a program that prints figures (never timed test assertions). Its own package,
// so EndpointKit users never resolve NIO. Run: swift run -c release --package-path Benchmarks bench
let package = Package(
    name: "EndpointKitBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "EndpointKit", path: ".."),
        .package(name: "EndpointKitAsyncHTTPClient", path: "../EndpointKitAsyncHTTPClient"),
        .package(name: "EndpointKitTelemetry", path: "../EndpointKitTelemetry"),
        .package(name: "EndpointKitOpenAPI", path: "../EndpointKitOpenAPI"),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Counts allocations; preloaded into a child process only (see Allocations.swift).
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    ],
    targets: [
        // A client generated from Sources/BenchAPI/openapi.yaml, for the OpenAPI transport rows.
        .target(
            name: "BenchAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            // The generator writes the same `public import`s into every file and tells only
            // Swift 6.4 (`@diagnose`) to accept those a file does not use: on 6.3 each file
            // warns, lines on a first build that no one can act on.
            swiftSettings: [.unsafeFlags(["-suppress-warnings"])],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]),
        // What both programs below use.
        .target(
            name: "BenchSupport",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]),
        .executableTarget(
            name: "Bench",
            dependencies: [
                "BenchAPI",
                "BenchSupport",
                .product(name: "EndpointKitOpenAPI", package: "EndpointKitOpenAPI"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "EndpointKitAsyncHTTPClient", package: "EndpointKitAsyncHTTPClient"),
                .product(name: "EndpointKitTelemetry", package: "EndpointKitTelemetry"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        // Small GETs for Scripts/bench-instructions.sh to count under callgrind: a synchronous
        // main, since Valgrind 3.19 crashes when a program's async main starts its first thread.
        .executableTarget(
            name: "Instructions",
            dependencies: [
                "BenchAPI",
                "BenchSupport",
                .product(name: "EndpointKitOpenAPI", package: "EndpointKitOpenAPI"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "EndpointKitAsyncHTTPClient", package: "EndpointKitAsyncHTTPClient"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
