// swift-tools-version:6.2
import PackageDescription

// The feature SDK: the only code that crosses the plugin boundary. Both products are dynamic
// libraries so that the host, the built-in feature modules and run-time plugins share one copy
// of every type (see docs/architecture.md).

// RemixKit is the code plugin authors read and copy, so it is compiled as they compile theirs:
// no unsafe code outside the C boundary of plugins (`Plugin/`), and the run-time exclusivity
// checks on in every configuration.
// Debug builds are unoptimised, for the debugger; REMIX_OPTIMIZED_DEBUG=1 compiles it with `-O` in
// debug too (keeping `DEBUG` and the checks), as CI's debug build does (.ci/run): the tests simulate
// and fit over a million sessions, and an unoptimised RemixKit makes a debug-built session about
// twice as slow (docs/performance.md). That flag is an unsafe one; tools version 6.2 is what lets a
// plugin depend on this package by URL and version all the same: from 6.2 on, SwiftPM accepts a
// dependency's unsafe flags when its manifest declares 6.2 or later (docs/plugins.md).
let optimizedInDebug: [SwiftSetting] = [
    .unsafeFlags(Context.environment["REMIX_OPTIMIZED_DEBUG"] == "1" ? ["-O"] : [], .when(configuration: .debug)),
]
// Strict memory safety checking, its warnings errors where this is the root package (CI builds it
// so, .ci/docs): RemixKit and RemixKitTesting hold no unsafe code outside the C boundary of plugins
// (`Plugin/`), RemixSystem and RemixYAML only at the C library's and libyaml's, each use marked.
let checkedUnsafe: [SwiftSetting] = [.strictMemorySafety(), .treatWarning("StrictMemorySafety", as: .error)]
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
        // `swift package generate-documentation` (the DocC catalogs of RemixKit and RemixKitTesting);
        // a plugin only, so nothing that depends on RemixKit fetches or builds it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "RemixKit", swiftSettings: optimizedInDebug + checkedUnsafe),
        .target(name: "RemixKitTesting", dependencies: ["RemixKit"], swiftSettings: checkedUnsafe),
        .target(name: "RemixSystem", swiftSettings: checkedUnsafe),
        .target(name: "RemixYAML", dependencies: ["RemixSystem", .product(name: "Yams", package: "Yams")], swiftSettings: checkedUnsafe),
    ],
    swiftLanguageModes: [.v6]
)
