// swift-tools-version:6.0
import PackageDescription

// The built-in feature modules. They ship as one dynamic library so that the host and run-time
// plugins (which may reuse, e.g., the Marketplace interactor) share one copy of their types.
// Release builds skip run-time exclusivity checks in the features: every simulated session runs
// through them, the checks were 7 % of its instructions, and debug builds (the tests) keep them
// (docs/performance.md).
let hotPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "RemixFeatures",
    platforms: [.macOS(.v15)],
    products: [
        .library(
            name: "RemixFeatures", type: .dynamic,
            targets: ["Classifieds", "Marketplace", "GroupBrowser", "Calculator"]),
    ],
    dependencies: [
        .package(path: "../Sources/RemixKit"),
    ],
    targets: [
        .target(
            name: "Classifieds",
            dependencies: [
                .product(name: "RemixKit", package: "RemixKit"),
                .product(name: "RemixYAML", package: "RemixKit"),
            ],
            path: "Classifieds", swiftSettings: hotPath),
        .target(
            name: "Marketplace",
            dependencies: ["Classifieds", .product(name: "RemixKit", package: "RemixKit")],
            path: "Marketplace",
            resources: [.copy("Resources/marketplace-catalog.yaml")], swiftSettings: hotPath),
        .target(
            name: "GroupBrowser",
            dependencies: ["Classifieds", .product(name: "RemixKit", package: "RemixKit")],
            path: "GroupBrowser",
            resources: [.copy("Resources/groupbrowser-catalog.yaml")], swiftSettings: hotPath),
        .target(
            name: "Calculator",
            dependencies: [.product(name: "RemixKit", package: "RemixKit")],
            path: "Calculator", swiftSettings: hotPath),
    ],
    swiftLanguageModes: [.v6]
)
