// swift-tools-version:6.0
import PackageDescription

// The built-in feature modules. They ship as one dynamic library so that the host and run-time
// plugins (which may reuse, e.g., the Marketplace interactor) share one copy of their types.
// Debug builds optimise them (keeping `DEBUG` and its checks): every simulated session runs
// through them, and tests simulate tens of thousands of users.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]
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
            path: "Classifieds", swiftSettings: optimizedInDebug),
        .target(
            name: "Marketplace",
            dependencies: ["Classifieds", .product(name: "RemixKit", package: "RemixKit")],
            path: "Marketplace",
            resources: [.copy("Resources/marketplace-catalog.yaml")], swiftSettings: optimizedInDebug),
        .target(
            name: "GroupBrowser",
            dependencies: ["Classifieds", .product(name: "RemixKit", package: "RemixKit")],
            path: "GroupBrowser",
            resources: [.copy("Resources/groupbrowser-catalog.yaml")], swiftSettings: optimizedInDebug),
        .target(
            name: "Calculator",
            dependencies: [.product(name: "RemixKit", package: "RemixKit")],
            path: "Calculator", swiftSettings: optimizedInDebug),
    ],
    swiftLanguageModes: [.v6]
)
