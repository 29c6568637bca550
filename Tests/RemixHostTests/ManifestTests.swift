import Foundation
import RemixTestSupport
import Testing

/// Rules of Package.swift that the compiler does not check.
@Suite struct ManifestTests {
    /// Modules another module re-exports (`@_exported import`), by the module that re-exports them.
    static let reexported = ["RemixExperiments": "GrowthBookAssignment", "RemixStore": "RemixStoreURL"]

    /// Every target that lists a re-exporting module lists the re-exported one too: SwiftPM
    /// rebuilds a target when a module it lists changes, and a re-exported module's changed struct
    /// layout would otherwise stay stale in the target's incremental build.
    @Test func targetsListTheModulesTheirDependenciesReexport() throws {
        let manifest = try String(contentsOfFile: Repository.root.path + "/Package.swift", encoding: .utf8)
        var offenders: [String] = []
        var rest = manifest[...]
        while let start = rest.range(of: "dependencies: [") {
            var depth = 1
            var index = start.upperBound
            while depth > 0, index < rest.endIndex {
                if rest[index] == "[" { depth += 1 } else if rest[index] == "]" { depth -= 1 }
                index = rest.index(after: index)
            }
            let dependencies = rest[start.lowerBound..<index]
            for (module, exported) in Self.reexported
            where dependencies.contains("\"\(module)\"") && !dependencies.contains("\"\(exported)\"") {
                offenders.append("\(module) without \(exported): \(dependencies.prefix(120))")
            }
            rest = rest[index...]
        }
        #expect(offenders.isEmpty, "add the re-exported module to these targets' dependencies: \(offenders)")
        // The re-exports themselves are still there (else this rule would guard nothing).
        for (module, exported) in Self.reexported {
            let exports = try String(contentsOfFile: Repository.root.path + "/Sources/\(module)/Exports.swift", encoding: .utf8)
            #expect(exports.contains("@_exported import \(exported)"))
        }
    }

    /// Debug builds are unoptimised, for the debugger: each manifest compiles with `-O` in debug
    /// only when REMIX_OPTIMIZED_DEBUG=1 (as CI's debug build sets it), never unconditionally.
    @Test(arguments: ["Package.swift", "Sources/RemixKit/Package.swift", "features/Package.swift"])
    func debugBuildsOptimiseOnlyWhenAsked(manifest path: String) throws {
        let manifest = try String(contentsOfFile: Repository.root.path + "/" + path, encoding: .utf8)
        #expect(manifest.contains("Context.environment[\"REMIX_OPTIMIZED_DEBUG\"] == \"1\" ? [\"-O\"] : []"), "\(path)")
        #expect(!manifest.contains(".unsafeFlags([\"-O\"]"), "\(path) compiles with -O unconditionally")
        #expect(!manifest.contains("REMIX_UNOPTIMIZED_DEBUG"), "\(path)")
    }
}
