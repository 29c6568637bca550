// swift-tools-version:6.2
import PackageDescription

// The built-in feature modules. They ship as one dynamic library so that the host and run-time
// plugins (which may reuse, e.g., the Marketplace interactor) share one copy of their types.
// Every simulated session runs through them, so they are built as the root manifest's `hotPath`
// targets are: release builds skip run-time exclusivity checks (each view, coordinator,
// interactor and in-memory service belongs to one session and is used on its thread; the
// compiler still checks what it can statically), and debug builds are optimised but keep `DEBUG`
// and the dynamic checks, as tests simulate tens of thousands of users (docs/performance.md).
// Tools version 6.2 lets a plugin depend on this package by URL and version all the same: from 6.2
// on, SwiftPM accepts a dependency's unsafe flags when its manifest declares 6.2 or later
// (docs/plugins.md).
let hotPath: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
    .unsafeFlags(["-O"], .when(configuration: .debug)),
]
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
