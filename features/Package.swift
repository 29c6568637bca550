// swift-tools-version:6.2
import PackageDescription

// The built-in feature modules. They ship as one dynamic library so that the host and run-time
// plugins (which may reuse, e.g., the Marketplace interactor) share one copy of their types.
// They are sample code that app and plugin authors copy, so they hold no unsafe code and keep the
// run-time exclusivity checks in every configuration. Debug builds are unoptimised, for the
// debugger; REMIX_OPTIMIZED_DEBUG=1 compiles them with `-O` in debug too (keeping `DEBUG` and the
// checks), as CI's debug build does (.ci/run): every simulated session runs through them, and tests
// simulate tens of thousands of users (docs/performance.md). `-O` is an unsafe flag; tools version
// 6.2 lets a plugin depend on this package by URL and version all the same: from 6.2 on, SwiftPM
// accepts a dependency's unsafe flags when its manifest declares 6.2 or later (docs/plugins.md).
let optimizedInDebug: [SwiftSetting] = [
    .unsafeFlags(Context.environment["REMIX_OPTIMIZED_DEBUG"] == "1" ? ["-O"] : [], .when(configuration: .debug)),
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
