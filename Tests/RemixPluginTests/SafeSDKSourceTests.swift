import Foundation
import RemixTestSupport
import Testing

/// RemixKit, its testing kit and the feature modules are what plugin authors read and copy: they
/// hold no unsafe code but at the C boundary of plugins (RemixKit's `Plugin/` folder and each
/// plugin's entry point, `*Plugin.swift`), and their manifests keep the run-time exclusivity checks.
@Suite struct SafeSDKSourceTests {
    /// The folders that must be safe, from the repository's root.
    static let folders = ["Sources/RemixKit/Sources/RemixKit", "Sources/RemixKit/Sources/RemixKitTesting", "features"]

    static func isPluginBoundary(_ path: String) -> Bool {
        path.hasPrefix("Sources/RemixKit/Sources/RemixKit/Plugin/") || path.hasSuffix("Plugin.swift")
    }

    /// The folders under `Sources/` whose job is bytes or the C boundary, the only ones that may
    /// hold unsafe code (issue 53: at most six): the log reader, the event-log writer, the formats'
    /// short strings, the assignment engine's hot path, RemixKit's plugin boundary (checked above)
    /// and the host's plugin loader. The benchmarks are exempt.
    static let unsafeFolders: Set = ["RemixLogReader", "RemixEventLog", "RemixFormats", "GrowthBookAssignment", "RemixKit",
                                     "RemixHost"]
    static let exemptFolders: Set = ["RemixBench"]

    /// What counts as unsafe code: pointer types and the APIs that make, rebind or retain through them
    /// (`withUnsafe…` covers `_withUnsafe…`). Plain substrings: a regular expression per line of every
    /// source file took 23 CPU s of the suite.
    static let unsafe: [String] = ["withUnsafe", "Unmanaged", "unowned(unsafe)", "unsafeBitCast", "assumingMemoryBound", "bindMemory",
                                   "unsafeDowncast"]
        + ["", "Mutable"].flatMap { mutable in
            ["", "Raw"].flatMap { raw in ["", "Buffer"].map { buffer in "Unsafe\(mutable)\(raw)\(buffer)Pointer" } }
        }

    /// Whether `line` holds unsafe code.
    static func isUnsafe(_ line: Substring) -> Bool {
        unsafe.contains { line.contains($0) }
    }

    /// The `file:line` of every line with unsafe code in the Swift files under `folder` (from the
    /// repository's root), but for the files `skip` names.
    static func unsafeLines(in folder: String, skip: (String) -> Bool = { _ in false }) throws -> [String] {
        var offenders: [String] = []
        let base = Repository.root.path + "/" + folder
        for path in FileManager.default.subpaths(atPath: base) ?? [] where path.hasSuffix(".swift") && !path.contains(".build") {
            let relative = folder + "/" + path
            guard !skip(relative) else { continue }
            let lines = try String(contentsOfFile: base + "/" + path, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where isUnsafe(line) {
                offenders.append("\(relative):\(index + 1)")
            }
        }
        return offenders
    }

    /// Each form the issue names is found, and safe lines are not.
    @Test func everyFormOfUnsafeCodeIsFound() {
        let unsafeLines = ["p.withUnsafeBytes { $0 }", "x._withUnsafeGuaranteedRef { $0 }", "let b: UnsafeMutableRawBufferPointer",
                           "UnsafePointer<UInt8>", "UnsafeRawPointer(p)", "UnsafeMutableBufferPointer<Int>", "Unmanaged.passRetained(o)",
                           "unowned(unsafe) let next: Node", "unsafeBitCast(f, to: T.self)", "p.assumingMemoryBound(to: UInt8.self)",
                           "p.bindMemory(to: Int.self, capacity: 1)", "unsafeDowncast(o, to: C.self)",
                           "withUnsafeContinuation { _ in }"]
        for line in unsafeLines { #expect(Self.isUnsafe(line[...]), "\(line)") }
        for line in ["span.withSpan { $0 }", "let unsafe = false", "// Safe code only", "unowned let owner: Owner"] {
            #expect(!Self.isUnsafe(line[...]), "\(line)")
        }
    }

    @Test func noUnsafeCodeOutsideThePluginBoundary() throws {
        let offenders = try Self.folders.flatMap { try Self.unsafeLines(in: $0, skip: Self.isPluginBoundary) }
        #expect(offenders.isEmpty, "unsafe code outside the plugin boundary: \(offenders)")
    }

    /// Pointer-level code stays in the byte modules: the analysis, the fit, the files, the checks
    /// and every other module read lines and bytes through safe views (`Span`, arrays).
    @Test func noUnsafeCodeOutsideTheByteModules() throws {
        #expect(Self.unsafeFolders.count <= 6)
        let folders = try FileManager.default.contentsOfDirectory(atPath: Repository.root.path + "/Sources").sorted()
        #expect(folders.contains("RemixAnalysis") && folders.contains("RemixFit"))
        var offenders: [String] = []
        for folder in folders where !Self.unsafeFolders.contains(folder) && !Self.exemptFolders.contains(folder) {
            offenders += try Self.unsafeLines(in: "Sources/" + folder)
        }
        #expect(offenders.isEmpty, "unsafe code outside the byte modules: \(offenders)")
    }

    @Test(arguments: ["Sources/RemixKit/Package.swift", "features/Package.swift",
                      "features/QuickInsertion/Package.swift", "features/WizardInsertion/Package.swift"])
    func manifestKeepsExclusivityChecks(manifest: String) throws {
        let text = try String(contentsOf: Repository.root.appendingPathComponent(manifest), encoding: .utf8)
        #expect(!text.contains("-enforce-exclusivity"), "\(manifest) turns the run-time exclusivity checks off")
    }
}
