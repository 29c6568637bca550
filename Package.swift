// swift-tools-version:6.0
import PackageDescription

// The Remix host. RemixKit (the feature SDK) and the built-in feature modules are local packages
// with dynamic library products, so the host, the modules and run-time plugins share one copy
// of every type that crosses the plugin boundary (docs/architecture.md).
let remixKit: Target.Dependency = .product(name: "RemixKit", package: "RemixKit")
let remixYAML: Target.Dependency = .product(name: "RemixYAML", package: "RemixKit")
let features: Target.Dependency = .product(name: "RemixFeatures", package: "features")

let package = Package(
    name: "remix",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "remix", targets: ["remix"]),
        .executable(name: "remix-bench", targets: ["remix-bench"]),
    ],
    dependencies: [
        .package(path: "Sources/RemixKit"),
        .package(path: "features"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .target(name: "RemixHost", dependencies: [remixKit, remixYAML, features]),
        .target(name: "RemixExperiments", dependencies: [remixKit, remixYAML]),
        .target(name: "RemixEventLog", dependencies: [remixKit]),
        .target(
            name: "RemixSimulation",
            dependencies: ["RemixHost", "RemixExperiments", "RemixEventLog", remixKit, remixYAML, features]),
        .target(name: "RemixTerminal", dependencies: ["RemixHost", remixKit]),
        .target(
            name: "RemixCLI",
            dependencies: [
                "RemixHost", "RemixTerminal", "RemixExperiments", "RemixSimulation", "RemixEventLog", remixKit, remixYAML,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "remix", dependencies: ["RemixCLI"]),
        .executableTarget(
            name: "remix-bench",
            dependencies: ["RemixExperiments", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/RemixBench"),
        .testTarget(name: "RemixKitTests", dependencies: [remixKit]),
        .testTarget(name: "ClassifiedsTests", dependencies: [remixKit, remixYAML, features]),
        .testTarget(name: "MarketplaceTests", dependencies: [remixKit, features, "RemixHost"]),
        .testTarget(name: "GroupBrowserTests", dependencies: [remixKit, features, "RemixHost"]),
        .testTarget(name: "CalculatorTests", dependencies: [remixKit, features, "RemixHost"]),
        .testTarget(name: "RemixExperimentsTests", dependencies: ["RemixExperiments", "RemixHost", remixKit, remixYAML]),
        .testTarget(name: "RemixHostTests", dependencies: ["RemixHost", "RemixTerminal", "RemixCLI", remixKit, features]),
    ],
    swiftLanguageModes: [.v6]
)
