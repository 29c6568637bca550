// swift-tools-version:6.2
import PackageDescription

// The Remix host. RemixKit (the feature SDK) and the built-in feature modules are local packages
// with dynamic library products, so the host, the modules and run-time plugins share one copy
// of every type that crosses the plugin boundary (docs/architecture.md).
let remixKit: Target.Dependency = .product(name: "RemixKit", package: "RemixKit")
let remixYAML: Target.Dependency = .product(name: "RemixYAML", package: "RemixKit")
let features: Target.Dependency = .product(name: "RemixFeatures", package: "features")
let remixKitTesting: Target.Dependency = .product(name: "RemixKitTesting", package: "RemixKit")
// The platform's C library, imported in one place (Sources/RemixKit/Sources/RemixSystem).
let remixSystem: Target.Dependency = .product(name: "RemixSystem", package: "RemixKit")
// RemixExperiments re-exports GrowthBookAssignment, and RemixStore re-exports RemixStoreURL
// (`@_exported import`); a target that lists the first lists the second too. SwiftPM rebuilds a
// target when a module it lists changes, not when one reaches it through a re-export: a changed
// stored property of a struct there (AssignmentResult) left the target copying the old
// layout in an incremental build — wrong assignment counts, a crash — until a clean build.
// `ManifestTests` checks the rule.
// Swift checks at run time that no two accesses to one variable overlap while one of them writes
// (exclusivity), where the compiler cannot prove it statically. Every target keeps those checks
// except the ones listing `hotPath`, whose release builds skip them: each such target states
// beside it what its checks cost, measured with that target alone checked (bench/instruction-gate's
// counts, callgrind on a stripped release remix-bench). A target whose checks cost under 1 % of a
// session and of an assignment keeps them. Debug builds (the tests) keep them everywhere.
// Debug builds are unoptimised, for the debugger; REMIX_OPTIMIZED_DEBUG=1 compiles the targets
// listing `optimizedInDebug` or `hotPath` with `-O` in debug too (keeping `DEBUG` and the checks),
// as CI's debug build does (.ci/run): tests simulate and fit tens of thousands of users, which
// unoptimised code runs 10–15× slower (a 30 000-user simulation 17 s against 1.5 s; a fit of its
// log 136 s against 9 s).
let optimizedInDebug: SwiftSetting = .unsafeFlags(
    Context.environment["REMIX_OPTIMIZED_DEBUG"] == "1" ? ["-O"] : [], .when(configuration: .debug))
// The byte modules, the only root targets that hold unsafe code, are compiled with strict memory
// safety checking, its warnings errors: every unsafe use is marked `unsafe` (or `@unsafe`), so none
// goes in unnoticed.
let checkedUnsafe: [SwiftSetting] = [.strictMemorySafety(), .treatWarning("StrictMemorySafety", as: .error)]
let hotPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)), optimizedInDebug]

let package = Package(
    name: "remix",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "remix", targets: ["remix"]),
        .executable(name: "remix-bench", targets: ["remix-bench"]),
        .executable(name: "remix-fit-truths", targets: ["remix-fit-truths"]),
        // The example run-time plugin (docs/plugins.md), built here so plain `swift build` puts
        // libQuickInsertionPlugin.so beside `remix`; nothing links it. Its sources are also a
        // standalone package (features/QuickInsertion/Package.swift), as an out-of-tree plugin is.
        .library(name: "QuickInsertionPlugin", type: .dynamic, targets: ["QuickInsertion"]),
        // The second example plugin, a three-step insertion wizard, built the same way.
        .library(name: "WizardInsertionPlugin", type: .dynamic, targets: ["WizardInsertion"]),
    ],
    dependencies: [
        .package(path: "Sources/RemixKit"),
        .package(path: "features"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // ── Bytes and formats: JSON, times, files a command writes, the event log, store URLs.
        // The formats the host reads and writes, apart from any command: JSON, RFC 3339 times,
        // grouped counts, FNV-1a run ids (the standard library only). Optimised in CI's debug build (REMIX_OPTIMIZED_DEBUG):
        // the event log's writer and the analysis' string table call its `ShortBytes` per field.
        .target(name: "RemixFormats", swiftSettings: [optimizedInDebug] + checkedUnsafe),
        // What a command writes: outputs checked against its inputs, staged outputs, stop signals.
        .target(name: "RemixFiles", dependencies: ["RemixFormats", remixSystem]),
        // Its line writer holds a buffer's address, and is `~Escapable` so that it cannot outlive
        // the buffer (`@_lifetime`, Swift's Lifetimes feature, as the standard library's `Span` is).
        .target(name: "RemixEventLog", dependencies: ["RemixFiles", "RemixFormats", remixKit, remixSystem],
                swiftSettings: [optimizedInDebug, .enableExperimentalFeature("Lifetimes")] + checkedUnsafe),
        // Event-store URLs and the store's typed errors (Foundation only), apart from the PostgreSQL
        // client so that what only reads a URL — the fuzz target, option checks — builds without
        // SwiftNIO and BoringSSL.
        .target(name: "RemixStoreURL"),
        // ── Domain engines: assignment, experiment files, sessions, simulation, statistics.
        // GrowthBook's assignment engine: hashing, conditions, bucketing (Foundation and RemixFormats only).
        .target(name: "GrowthBookAssignment", dependencies: ["RemixFormats"], swiftSettings: [optimizedInDebug] + checkedUnsafe),
        .target(name: "RemixExperiments", dependencies: ["GrowthBookAssignment", "RemixFormats", remixKit, remixYAML], swiftSettings: [optimizedInDebug]),
        // Sticky-bucket stores outside the event store: GrowthBook's documents in a JSON Lines file.
        .target(name: "RemixStickyBuckets", dependencies: ["RemixFormats", "GrowthBookAssignment", remixSystem]),
        .target(name: "RemixHost", dependencies: [remixKit, remixYAML, remixSystem], swiftSettings: [optimizedInDebug] + checkedUnsafe),
        .target(name: "RemixTerminal", dependencies: ["RemixHost", remixKit]),
        .target(
            name: "RemixSimulation",
            dependencies: ["RemixHost", "RemixExperiments", "GrowthBookAssignment", "RemixEventLog", "RemixFormats", remixKit, remixYAML],
            // Checks on: +5.5 % instructions a session (129.4 k against 122.7 k), +0 % an assignment.
            // Lifetimes: its field writer wraps the event log's line writer (`~Escapable`).
            swiftSettings: hotPath + [.enableExperimentalFeature("Lifetimes")]),
        // GrowthBook SDK payloads: export experiments as one, import one as experiment files.
        .target(name: "RemixInterop", dependencies: ["RemixExperiments", "GrowthBookAssignment", "RemixFiles", "RemixFormats", remixKit, remixYAML]),
        // gbstats' tests (frequentist, sequential, Bayesian, guardrails, SRM, corrections) and power
        // analysis, on numbers only (Foundation). Optimised in CI's debug build, as the analysis it serves;
        // its `pow` keeps the statistics bit-exact with gbstats when optimised (LibmPower.swift).
        .target(name: "RemixStatistics", swiftSettings: [optimizedInDebug]),
        // ── Analysis and decisions: the log reader, the report, its writers and sources, controllers, checks, the fit.
        // The byte-level JSON Lines log reader (scanner, line splitter, parallel reads) the analysis and the fit share.
        .target(name: "RemixLogReader", dependencies: ["GrowthBookAssignment", "RemixFormats", remixSystem],
                swiftSettings: [optimizedInDebug, .enableExperimentalFeature("Lifetimes")] + checkedUnsafe),
        // Optimised in CI's debug build (REMIX_OPTIMIZED_DEBUG) too: the fit and the fidelity comparison read every log line
        // through its scanner, and HeldOutFitTests read 1.6 million users' logs (RemixFitTests 329
        // against 193 CPU seconds; the test stage 387 against 257).
        .target(name: "RemixAnalysis", dependencies: ["RemixStatistics", "RemixLogReader", "RemixExperiments", "GrowthBookAssignment", "RemixFormats", remixKit, remixYAML, remixSystem],
                swiftSettings: [optimizedInDebug]),
        // The report writers: table, Markdown, CSV, JSON and HTML renderings of an analysis report, and
        // writing one in place (`--output`). Unoptimised in every debug build: a report is rendered once per
        // analysis, no test's time is in it.
        .target(name: "RemixReports", dependencies: ["RemixAnalysis", "RemixStatistics", "RemixFormats", remixKit, remixSystem]),
        // Analysis in a data warehouse (docs/scale.md): one SQL query of every aggregate a report needs, for
        // PostgreSQL, DuckDB or Spark, and its result read back as the analysis' aggregates. Only the
        // application layer (and the CLI, for the dialect option) imports it. Unoptimised in every debug
        // build: it writes one query and reads one small result.
        .target(name: "RemixWarehouse", dependencies: ["RemixAnalysis", "RemixStatistics", "RemixFormats"]),
        // The PostgreSQL event store (docs/storage.md): connections, the schema, writing and reading.
        .target(
            name: "RemixStore",
            dependencies: ["RemixStoreURL", "RemixEventLog", "RemixAnalysis", "RemixFiles", "RemixFormats", "GrowthBookAssignment", remixKit,
                           .product(name: "PostgresNIO", package: "postgres-nio")]),
        // Decisions in virtual time from the log so far: the safe-rollout and bandit controllers and
        // their rules (a rollout's step decision, a bandit's weights; docs/rollouts.md, docs/bandits.md).
        // Optimised in CI's debug build (REMIX_OPTIMIZED_DEBUG): they read every block of a simulated log (the bandit tests
        // took 16 CPU s unoptimised).
        .target(
            name: "RemixDecisions",
            dependencies: ["RemixSimulation", "RemixAnalysis", "RemixStatistics", "RemixLogReader", "RemixExperiments", "GrowthBookAssignment", "RemixEventLog", "RemixFormats", remixKit],
            swiftSettings: [optimizedInDebug]),
        // Self-checks of the whole pipeline (docs/planning.md): the A/A check.
        .target(
            name: "RemixChecks",
            dependencies: ["RemixSimulation", "RemixAnalysis", "RemixStatistics", "RemixExperiments", "GrowthBookAssignment", "RemixEventLog", "RemixFiles", remixKit]),
        // Populations learned from event logs (`remix fit`).
        .target(
            name: "RemixFit",
            dependencies: ["RemixSimulation", "RemixAnalysis", "RemixLogReader", "RemixHost", "RemixExperiments", "GrowthBookAssignment", "RemixEventLog", "RemixFormats",
                           remixKit, remixYAML, remixSystem],
            // Checks on: +20.5 % instructions in a fit's own functions (callgrind, `remix-bench fit-truths
            // --truths 1 --users 3000 --compared 1000 --replicates 2 --predicted 1000`); no session or assignment runs it.
            swiftSettings: hotPath),
        // ── Application: the built-in modules and one use case per command.
        // The application's assembly: which feature modules are built in. Apart from RemixApp so that
        // tests and fuzz checks that need the built-in registry do not link the event store.
        // The metrics of the built-in apps ship with them (a copy of experiments/metrics.yaml), found as
        // their catalogs are: what a command reads when an experiments folder has none.
        .target(name: "RemixBuiltIns", dependencies: [remixKit, features], resources: [.copy("Resources/metrics.yaml")]),
        // The application layer: one use case per command, taking option values and returning
        // results or typed errors (docs/architecture.md#layers).
        .target(
            name: "RemixApp",
            dependencies: [
                "RemixBuiltIns", "RemixHost", "RemixTerminal", "RemixExperiments", "GrowthBookAssignment", "RemixSimulation", "RemixEventLog", "RemixAnalysis",
                "RemixStatistics", "RemixReports", "RemixWarehouse", "RemixLogReader", "RemixInterop", "RemixStore", "RemixStoreURL", "RemixStickyBuckets", "RemixChecks", "RemixDecisions", "RemixFiles", "RemixFit", "RemixFormats",
                remixKit, remixYAML, remixSystem,
            ]),
        // ── Commands: the `remix` executable and its subcommands.
        // The `remix` commands: parse, validate, call a use case, render.
        .target(
            name: "RemixCLI",
            dependencies: [
                "RemixApp", "RemixBuiltIns", "RemixAnalysis", "RemixStatistics", "RemixWarehouse", "RemixFormats", "RemixExperiments", "GrowthBookAssignment", "RemixFit", "RemixHost", "RemixFiles", remixKit, remixSystem,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "remix", dependencies: ["RemixCLI", remixSystem]),
        // ── Example plugins, the benchmark tool, test support and tests.
        // RemixKit and the built-in modules by product: the plugin links their shared libraries.
        .target(name: "QuickInsertion", dependencies: [remixKit, features], path: "features/QuickInsertion/Sources/QuickInsertion"),
        .target(
            name: "WizardInsertion", dependencies: [remixKit, features], path: "features/WizardInsertion/Sources/WizardInsertion"),
        .executableTarget(
            name: "remix-bench",
            dependencies: [
                "RemixExperiments", "GrowthBookAssignment", "RemixEventLog", "RemixFormats", "RemixSimulation", "RemixBuiltIns", remixKit, remixSystem,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/RemixBench"),
        // The fit's proof on generated truths (bench/run), a tool of its own so that the benchmarks CI's
        // instruction gate builds in release (`remix-bench`) leave the fit and the analysis out.
        .executableTarget(
            name: "remix-fit-truths",
            dependencies: [
                "RemixFit", "RemixSimulation", "RemixAnalysis", "RemixEventLog", "RemixExperiments", "GrowthBookAssignment", "RemixHost", "RemixBuiltIns",
                "RemixTestSupport",
                remixKit, remixSystem, .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/RemixFitTruths"),
        // Runs the built `remix` for the tests that use it as a user would.
        .target(name: "RemixTestSupport", dependencies: [remixKit, remixKitTesting, remixSystem], path: "Tests/RemixTestSupport"),
        // Runs `remix` commands in the test process, for the tests of what a command does. A sanitizer
        // run (REMIX_TEST_ONLY, .ci/run) builds neither the CLI nor the event store: there it runs the
        // built `remix` instead.
        .target(
            name: "RemixCLITestSupport",
            dependencies: (Context.environment["REMIX_TEST_ONLY"] == nil ? ["RemixCLI"] : []) + ["RemixTestSupport"],
            path: "Tests/RemixCLITestSupport"),
        .testTarget(name: "RemixKitTests", dependencies: [remixKit, remixKitTesting]),
        .testTarget(name: "RemixFormatsTests", dependencies: ["RemixFormats"]),
        .testTarget(name: "ClassifiedsTests", dependencies: [remixKit, remixYAML, features]),
        .testTarget(name: "MarketplaceTests", dependencies: [remixKit, remixKitTesting, features, "RemixHost", "RemixBuiltIns"]),
        // The example plugin's own test, written with the testing kit as a plugin author's would be.
        .testTarget(name: "QuickInsertionTests", dependencies: ["QuickInsertion", remixKit, remixKitTesting, features],
                    path: "features/QuickInsertion/Tests/QuickInsertionTests"),
        .testTarget(name: "GroupBrowserTests", dependencies: [remixKit, features, "RemixHost", "RemixBuiltIns"]),
        .testTarget(name: "CalculatorTests", dependencies: [remixKit, features, "RemixHost", "RemixBuiltIns"]),
        .testTarget(
            name: "RemixExperimentsTests",
            dependencies: ["RemixExperiments", "GrowthBookAssignment", "RemixHost", "RemixBuiltIns", "RemixCLITestSupport", "RemixTestSupport", "RemixStickyBuckets", remixKit,
                           remixYAML]),
        .testTarget(
            name: "RemixAnalysisTests",
            dependencies: ["RemixAnalysis", "RemixStatistics", "RemixReports", "RemixWarehouse", "RemixDecisions", "RemixLogReader", "RemixSimulation", "RemixEventLog", "RemixExperiments", "GrowthBookAssignment", "RemixHost", "RemixBuiltIns",
                           "RemixCLITestSupport", "RemixTestSupport", "RemixChecks", "RemixFormats", remixKit, remixYAML, remixSystem, features],
            exclude: ["Vectors", "Warehouse/run_queries.py"]),
        .testTarget(
            name: "RemixHostTests",
            dependencies: ["RemixHost", "RemixBuiltIns", "RemixTerminal", "RemixCLITestSupport", "RemixTestSupport", remixKit, features]),
        .testTarget(
            name: "RemixPluginTests",
            dependencies: ["RemixHost", "RemixBuiltIns", "RemixCLITestSupport", "RemixTestSupport", remixKit, remixKitTesting, remixSystem, features]),
        .testTarget(
            name: "RemixInteropTests",
            dependencies: ["RemixInterop", "RemixExperiments", "GrowthBookAssignment", "RemixHost", "RemixBuiltIns", "RemixCLITestSupport", "RemixTestSupport", "RemixApp",
                           remixKit, remixYAML],
            exclude: ["Python"]),
        .testTarget(name: "RemixFilesTests", dependencies: ["RemixFiles", "RemixTestSupport", remixSystem]),
        // The deployment scripts (deploy/) run with fake `sbatch` and `kubectl` on PATH.
        .testTarget(name: "DeployTests", dependencies: ["RemixTestSupport"]),
        .testTarget(
            name: "RemixFitTests",
            dependencies: ["RemixFit", "RemixSimulation", "RemixAnalysis", "RemixExperiments", "GrowthBookAssignment", "RemixEventLog", "RemixHost",
                           "RemixBuiltIns", "RemixTestSupport", "RemixCLITestSupport", remixKit]),
        // The log reader's own tests (the reader through the analysis is tested in RemixAnalysisTests).
        .testTarget(name: "RemixLogReaderTests", dependencies: ["RemixLogReader", "RemixFormats", remixKit]),
        .testTarget(name: "RemixEventLogTests", dependencies: ["RemixEventLog", "RemixFormats", "RemixCLITestSupport", "RemixTestSupport", remixKit]),
        .testTarget(
            name: "RemixStoreTests",
            dependencies: ["RemixStore", "RemixAnalysis", "RemixApp", "RemixStoreURL", "RemixEventLog", "RemixTestSupport", "GrowthBookAssignment", remixKit, remixSystem,
                           .product(name: "PostgresNIO", package: "postgres-nio")]),
        // What each fuzz target checks, as plain functions the corpus tests call too (Tests/Fuzz/README.md).
        .target(
            name: "FuzzChecks",
            dependencies: ["RemixAnalysis", "RemixLogReader", "RemixExperiments", "GrowthBookAssignment", "RemixHost", "RemixBuiltIns", "RemixSimulation", "RemixStoreURL",
                           remixKit],
            path: "Tests/Fuzz/FuzzChecks"),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FuzzChecks"]),
        .testTarget(
            name: "RemixDecisionsTests",
            dependencies: ["RemixDecisions", "RemixApp", "RemixAnalysis", "RemixStatistics", "RemixExperiments", "GrowthBookAssignment", "RemixTestSupport", remixKit]),
        .testTarget(
            name: "RemixSimulationTests",
            dependencies: ["RemixSimulation", "RemixEventLog", "RemixExperiments", "GrowthBookAssignment", "RemixHost", "RemixBuiltIns", "RemixCLITestSupport",
                           "RemixTestSupport", "RemixFormats", remixKit, remixYAML, features]),
    ],
    swiftLanguageModes: [.v6]
)

// A release build of the tests (`swift test -c release`, CI's release lane) optimises the code under
// test, not the tests: the test targets and their support modules compile unoptimised in every
// configuration.
for target in package.targets where target.type == .test || target.path?.hasPrefix("Tests/") == true {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"], .when(configuration: .release))]
}

// libFuzzer targets (Tests/Fuzz/README.md), declared only when REMIX_FUZZ is set — as .ci/fuzz
// does, with its own scratch path and `-sanitize=fuzzer,address` — so that plain `swift build` and
// `swift test` never see them. They link libFuzzer themselves (`-sanitize=fuzzer`), so that CI's
// one AddressSanitizer build (.ci/run) serves the tests and the fuzzers: it compiles everything
// with libFuzzer's coverage (`-Xfrontend -sanitize=fuzzer`) and links only these with libFuzzer's
// `main`.
if Context.environment["REMIX_FUZZ"] != nil {
    let fuzzTargets = ["FuzzLogLine", "FuzzExperimentFile", "FuzzCondition", "FuzzPopulationFile", "FuzzAttributes", "FuzzMetricsFile",
                       "FuzzStoreURL"]
    package.targets.append(.target(name: "FuzzSupport", path: "Tests/Fuzz/FuzzSupport"))
    for target in fuzzTargets {
        package.targets.append(.executableTarget(
            name: target, dependencies: ["FuzzChecks", "FuzzSupport"], path: "Tests/Fuzz/\(target)",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])], linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])]))
        package.products.append(.executable(name: target, targets: [target]))
    }
}

// Sanitizer runs (.ci/run) build only the tests they run: with REMIX_TEST_ONLY set to test target
// names (space-separated), the package keeps those targets and what they depend on — not the
// CLI, the event store or its PostgreSQL client — and no products.
if let only = Context.environment["REMIX_TEST_ONLY"] {
    let byName = Dictionary(package.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var kept = Set<String>()
    var pending = only.split(separator: " ").map(String.init)
    while let name = pending.popLast() {
        guard kept.insert(name).inserted, let target = byName[name] else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            default: break
            }
        }
    }
    package.targets = package.targets.filter { kept.contains($0.name) }
    package.products = []
}
