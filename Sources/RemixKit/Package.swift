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
        // The platform's C library in one place (Glibc, Musl or Darwin), for the host's modules.
        .library(name: "RemixSystem", targets: ["RemixSystem"]),
        // The testing kit for feature and plugin authors: drive a session through its screens.
        .library(name: "RemixKitTesting", targets: ["RemixKitTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .target(name: "RemixKit"),
        .target(name: "RemixKitTesting", dependencies: ["RemixKit"]),
        .target(name: "RemixSystem"),
        .target(name: "RemixYAML", dependencies: ["RemixSystem", .product(name: "Yams", package: "Yams")]),
    ],
    swiftLanguageModes: [.v6]
)
