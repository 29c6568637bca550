import Foundation
import RemixBuiltIns
import RemixExperiments
import RemixHost
import RemixInterop
import RemixKit
import RemixTestSupport
import Testing

enum Paths {
    /// The package root: three levels above this file.
    static var root: URL { Repository.root }
    static var experiments: String { root.appendingPathComponent("experiments").path }
    static var pluginExperiments: String { root.appendingPathComponent("experiments/plugins").path }
    static var script: String { root.appendingPathComponent("Tests/RemixInteropTests/Python/evaluate_payload.py").path }
    static var stickyScript: String { root.appendingPathComponent("Tests/RemixInteropTests/Python/sticky_sequence.py").path }
    /// The example plugin, built beside the test bundle.
    static var plugin: String { RemixProcess.buildFolder.appendingPathComponent("libQuickInsertionPlugin." + PluginLoader.libraryExtension).path }
    /// The second example plugin, whose feature experiments/plugins/wizard-insertion.yaml names.
    static var wizardPlugin: String { RemixProcess.buildFolder.appendingPathComponent("libWizardInsertionPlugin." + PluginLoader.libraryExtension).path }
}

/// The Python that has GrowthBook's SDK: `REMIX_PYTHON` (set by .ci/run), else the private venv
/// `.build-venv` when it exists. Without either the SDK tests are skipped, except under `CI=true`,
/// where they fail so that CI never skips them silently.
enum GrowthBookPython {
    static let environment = ProcessInfo.processInfo.environment

    static var path: String? {
        if let given = environment["REMIX_PYTHON"], !given.isEmpty { return given }
        let venv = Paths.root.appendingPathComponent(".build-venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    /// Whether the SDK tests run: with a Python, or under CI (to fail there).
    static var shouldRun: Bool { path != nil || RequiredUnderCI.holds() }

    static let skipReason: Comment = """
        no Python with GrowthBook's SDK: set REMIX_PYTHON, or run .ci/run (it makes .build-venv with \
        'pip install growthbook')
        """

    /// Under CI=true without a Python: the tests fail with this.
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "CI=true but there is no Python with GrowthBook's SDK: set REMIX_PYTHON, or run .ci/run (it makes .build-venv)"
        }
    }

    /// Runs the evaluation script on `job` and returns its parsed results.
    static func evaluate(_ job: AttributeValue) throws -> (sdk: String, results: [String: AttributeValue]) {
        let output = try run(script: Paths.script, job: job)
        return (output["sdk"]?.stringValue ?? "?", output["results"]?.objectValue ?? [:])
    }

    /// Runs `script JOB.json RESULTS.json` with `job` and returns what it wrote.
    static func run(script: String, job: AttributeValue) throws -> AttributeValue {
        guard let python = path else { throw Missing() }
        let folder = try TemporaryFolder()
        let jobFile = try folder.write("job.json", PayloadJSON.compact(job))
        let resultFile = folder.path("results.json")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, jobFile, resultFile]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = DispatchTime.now() + 120
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: deadline, execute: watchdog)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        watchdog.cancel()
        let failure = "\(python) \(script) failed (is GrowthBook's SDK installed? "
            + "\(python) -m pip install growthbook):\n\(stderr)"
        try #require(process.terminationStatus == 0, "\(failure)")
        return try PayloadJSON.read(path: resultFile)
    }
}

/// One evaluation input: attributes, and QA forced variations by experiment key.
struct EvaluationCase {
    var attributes: [String: AttributeValue]
    var forced: [String: Int] = [:]

    var json: AttributeValue {
        .object(["attributes": .object(attributes), "forced": .object(forced.mapValues { .number(Double($0)) })])
    }
}

/// Deterministic attribute sets that exercise the shipped and test experiments' targeting:
/// every platform, app versions on both sides of 2.0, every country of the conditions (and a
/// lower-case one), beta testers, missing attributes and odd ids.
enum AttributeSets {
    static func make(count: Int, seed: UInt64 = 17) -> [EvaluationCase] {
        var random = SeededGenerator(seed: seed)
        let platforms: [AttributeValue?] = ["phone", "tablet", "phone", "tablet", nil]
        let versions: [AttributeValue?] = ["1.9.4", "2.0", "2.0.0", "2.0.1", "2.1.0", "10.0.1", "1.10", "2.0.0-beta", nil]
        let countries: [AttributeValue?] = ["GB", "IE", "DE", "FR", "US", "gb", "GB", "IE", nil]
        var cases: [EvaluationCase] = []
        for index in 0..<count {
            var attributes: [String: AttributeValue] = [:]
            switch index % 97 {
            case 5: break // no id: excluded by every experiment hashing it
            case 11: attributes["id"] = .number(Double(index))
            case 23: attributes["id"] = "qa-tablet"
            case 31: attributes["id"] = ""
            default: attributes["id"] = .string("user-\(index)")
            }
            func pick(_ name: String, _ values: [AttributeValue?]) {
                if let value = values[Int(random.next() % UInt64(values.count))] { attributes[name] = value }
            }
            pick("platform", platforms)
            pick("appVersion", versions)
            pick("country", countries)
            if random.next() % 5 != 0 { attributes["deviceId"] = .string("device-\(random.next() % 100_000)") }
            cases.append(EvaluationCase(attributes: attributes))
        }
        return cases
    }

    /// `cases` with QA forcing added to about one in thirty, over `keys` (and out-of-range indices).
    static func forcing(_ cases: [EvaluationCase], keys: [String], seed: UInt64 = 99) -> [EvaluationCase] {
        guard !keys.isEmpty else { return cases }
        var random = SeededGenerator(seed: seed)
        return cases.map { item in
            guard random.next() % 30 == 0 else { return item }
            var copy = item
            copy.forced[keys[Int(random.next() % UInt64(keys.count))]] = Int(random.next() % 4)
            return copy
        }
    }
}

/// Registries and experiment folders for the tests.
enum Fixtures {
    static func registry(withPlugin: Bool = false) throws -> FeatureRegistry {
        let registry = try BuiltInModules.registry()
        if withPlugin { try PluginLoader.load([Paths.plugin, Paths.wizardPlugin], into: registry) }
        return registry
    }

    /// Loads and validates `paths`, requiring no errors.
    static func load(_ paths: [String], registry: FeatureRegistry,
                     sourceLocation: Testing.SourceLocation = #_sourceLocation) -> ExperimentSet {
        let validation = ExperimentValidation.run(paths: paths, registry: registry)
        let errors = validation.diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)", sourceLocation: sourceLocation)
        return validation.experiments
    }

    static func date(_ text: String) -> Date { DateParsing.parse(text) ?? Date(timeIntervalSince1970: 0) }

    /// Before uk-manual-first's December schedule, and inside it.
    static let november = date("2026-11-23T09:00:00Z")
    static let december = date("2026-12-15T12:00:00Z")
}
