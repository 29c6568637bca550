// swift-tools-version:6.0
import PackageDescription

// WizardInsertion, the second example run-time plugin, laid out like QuickInsertion (and like a
// plugin built out of tree): a package of its own whose one dynamic library product depends on
// RemixKit and RemixFeatures by *product*, so it links the host's shared libraries instead of
// carrying copies of them (docs/plugins.md). `swift build` here builds
// .build/debug/libWizardInsertionPlugin.so.
//
// The root package also builds these sources, as its product `WizardInsertionPlugin`, so that a
// plain `swift build` of Remix produces the plugin beside `remix`.
let package = Package(
    name: "WizardInsertion",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WizardInsertionPlugin", type: .dynamic, targets: ["WizardInsertion"]),
    ],
    dependencies: [
        .package(path: "../../Sources/RemixKit"),
        .package(path: ".."),
    ],
    targets: [
        .target(
            name: "WizardInsertion",
            dependencies: [
                .product(name: "RemixKit", package: "RemixKit"),
                .product(name: "RemixFeatures", package: "features"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
