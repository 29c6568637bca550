// swift-tools-version:6.0
import PackageDescription

// QuickInsertion, the example run-time plugin, laid out as a plugin built out of tree would be: a
// package of its own whose one dynamic library product depends on RemixKit and RemixFeatures by
// *product*, so it links the host's shared libraries instead of carrying copies of them
// (docs/plugins.md). `swift build` here builds .build/debug/libQuickInsertionPlugin.so.
//
// The root package also builds these sources, as its product `QuickInsertionPlugin`, so that a
// plain `swift build` of Remix produces the plugin beside `remix` (SwiftPM builds only the root
// package's products, not a dependency's).
let package = Package(
    name: "QuickInsertion",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "QuickInsertionPlugin", type: .dynamic, targets: ["QuickInsertion"]),
    ],
    dependencies: [
        .package(path: "../../Sources/RemixKit"),
        .package(path: ".."),
    ],
    targets: [
        .target(
            name: "QuickInsertion",
            dependencies: [
                .product(name: "RemixKit", package: "RemixKit"),
                .product(name: "RemixFeatures", package: "features"),
            ]),
        // Tested with Remix's testing kit (`swift test` here, or the root package's QuickInsertionTests).
        .testTarget(
            name: "QuickInsertionTests",
            dependencies: [
                "QuickInsertion",
                .product(name: "RemixKit", package: "RemixKit"),
                .product(name: "RemixKitTesting", package: "RemixKit"),
                .product(name: "RemixFeatures", package: "features"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
