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

    @Test func noUnsafeCodeOutsideThePluginBoundary() throws {
        let unsafe = /withUnsafe|Unsafe(Mutable)?(Raw)?(Buffer)?Pointer|Unmanaged|unowned\(unsafe\)|unsafeBitCast|assumingMemoryBound|bindMemory|unsafeDowncast|_withUnsafe/
        var offenders: [String] = []
        for folder in Self.folders {
            let base = Repository.root.path + "/" + folder
            for path in FileManager.default.subpaths(atPath: base) ?? []
            where path.hasSuffix(".swift") && !path.contains(".build") {
                let relative = folder + "/" + path
                guard !Self.isPluginBoundary(relative) else { continue }
                let lines = try String(contentsOfFile: base + "/" + path, encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false)
                for (index, line) in lines.enumerated() where line.contains(unsafe) {
                    offenders.append("\(relative):\(index + 1)")
                }
            }
        }
        #expect(offenders.isEmpty, "unsafe code outside the plugin boundary: \(offenders)")
    }

    @Test(arguments: ["Sources/RemixKit/Package.swift", "features/Package.swift",
                      "features/QuickInsertion/Package.swift", "features/WizardInsertion/Package.swift"])
    func manifestKeepsExclusivityChecks(manifest: String) throws {
        let text = try String(contentsOf: Repository.root.appendingPathComponent(manifest), encoding: .utf8)
        #expect(!text.contains("-enforce-exclusivity"), "\(manifest) turns the run-time exclusivity checks off")
    }
}
