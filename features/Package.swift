// swift-tools-version:6.0
import PackageDescription

// The built-in feature modules. They ship as one dynamic library so that the host and run-time
// plugins (which may reuse, e.g., the Marketplace interactor) share one copy of their types.
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
            path: "Classifieds"),
        .target(
            name: "Marketplace",
            dependencies: ["Classifieds", .product(name: "RemixKit", package: "RemixKit")],
            path: "Marketplace",
            resources: [.copy("Resources/marketplace-catalog.yaml")]),
        .target(
            name: "GroupBrowser",
            dependencies: ["Classifieds", .product(name: "RemixKit", package: "RemixKit")],
            path: "GroupBrowser",
            resources: [.copy("Resources/groupbrowser-catalog.yaml")]),
        .target(
            name: "Calculator",
            dependencies: [.product(name: "RemixKit", package: "RemixKit")],
            path: "Calculator"),
    ],
    swiftLanguageModes: [.v6]
)
