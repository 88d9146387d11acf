// swift-tools-version:6.1
import PackageDescription

// The example app: a BookService over EndpointKit, an embedded demo server, and a CLI.
// Its own package, so EndpointKit users never resolve Hummingbird or ArgumentParser.
let package = Package(
    name: "EndpointKitExample",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "book-demo", targets: ["BookDemo"]),
    ],
    dependencies: [
        .package(name: "EndpointKit", path: ".."),
        // Only for DocumentationSnippetTests, which compiles the documentation's samples.
        .package(name: "EndpointKitAsyncHTTPClient", path: "../EndpointKitAsyncHTTPClient"),
        .package(name: "EndpointKitCombine", path: "../EndpointKitCombine"),
        .package(name: "EndpointKitTelemetry", path: "../EndpointKitTelemetry"),
        .package(name: "EndpointKitOpenAPI", path: "../EndpointKitOpenAPI"),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Only for DocumentationSnippetTests and OTelPipelineTests: the swift-otel set-up of
        // Telemetry.md, compiled, and run against a receiver. OTLP/HTTP only (no gRPC to build).
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(name: "BookKit", dependencies: [.product(name: "EndpointKit", package: "EndpointKit")]),
        // The book API's client, generated from Sources/BookAPI/openapi.yaml.
        .target(
            name: "BookAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            // The generator writes the same `public import`s into every file and tells only
            // Swift 6.4 (`@diagnose`) to accept those a file does not use: on 6.3 each file
            // warns, about 300 lines on a first build that no one can act on.
            swiftSettings: [.unsafeFlags(["-suppress-warnings"])],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]),
        .target(
            name: "DemoServer",
            dependencies: [
                "BookKit", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "BookDemo",
            dependencies: [
                "BookKit", "BookAPI", "DemoServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "EndpointKitOpenAPI", package: "EndpointKitOpenAPI"),
                .product(name: "EndpointKitTelemetry", package: "EndpointKitTelemetry"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]),
        .testTarget(
            name: "BookKitTests",
            dependencies: [
                "BookKit", "BookAPI", "DemoServer", .product(name: "EndpointKitTesting", package: "EndpointKit"),
                .product(name: "EndpointKitOpenAPI", package: "EndpointKitOpenAPI"),
            ]),
        .testTarget(
            name: "OTelPipelineTests",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitAsyncHTTPClient", package: "EndpointKitAsyncHTTPClient"),
                .product(name: "EndpointKitTelemetry", package: "EndpointKitTelemetry"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        .testTarget(
            name: "DocumentationSnippetTests",
            dependencies: [
                "BookKit",
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitTesting", package: "EndpointKit"),
                .product(name: "EndpointKitAsyncHTTPClient", package: "EndpointKitAsyncHTTPClient"),
                .product(name: "EndpointKitServiceLifecycle", package: "EndpointKitAsyncHTTPClient"),
                .product(name: "EndpointKitCombine", package: "EndpointKitCombine"),
                .product(name: "EndpointKitTelemetry", package: "EndpointKitTelemetry"),
                .product(name: "EndpointKitOpenAPI", package: "EndpointKitOpenAPI"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // Samples bind values they do not use; their warnings would only be noise.
            swiftSettings: [.unsafeFlags(["-suppress-warnings"])]),
    ],
    swiftLanguageModes: [.v6]
)
