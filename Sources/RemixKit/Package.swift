// swift-tools-version:6.0
import PackageDescription

// The feature SDK: the only code that crosses the plugin boundary. Both products are dynamic
// libraries so that the host, the built-in feature modules and run-time plugins share one copy
// of every type (see docs/architecture.md).
let package = Package(
    name: "RemixKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RemixKit", type: .dynamic, targets: ["RemixKit"]),
        .library(name: "RemixYAML", type: .dynamic, targets: ["RemixYAML"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // Release builds skip run-time exclusivity checks here: every simulated session runs
        // through this code, the checks were 7 % of its instructions, and debug builds (the
        // tests) keep them (docs/performance.md).
        .target(
            name: "RemixKit",
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        .target(name: "RemixYAML", dependencies: [.product(name: "Yams", package: "Yams")]),
    ],
    swiftLanguageModes: [.v6]
)
