import Foundation
import RemixTestSupport
import Testing

/// The byte-level modules may use unsafe code, but only through the standard library's public,
/// documented API: no underscored entry points (`_withUnsafeGuaranteedRef` and the like), which
/// carry no stability promise, and no `unowned(unsafe)` links anywhere in Sources/ or features/.
@Suite struct UnsafeConfinementTests {
    @Test func noUnderscoredStandardLibraryAPIOrUnownedUnsafe() throws {
        let forbidden = /\._with[A-Z]\w*|\b_withUnsafe\w*|unowned\(unsafe\)/
        var offenders: [String] = []
        for folder in ["Sources", "features"] {
            let base = Repository.root.path + "/" + folder
            for path in FileManager.default.subpaths(atPath: base) ?? []
            where path.hasSuffix(".swift") && !path.contains(".build") {
                let lines = try String(contentsOfFile: base + "/" + path, encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false)
                for (index, line) in lines.enumerated() where line.contains(forbidden) {
                    offenders.append("\(folder)/\(path):\(index + 1)")
                }
            }
        }
        #expect(offenders.isEmpty, "underscored standard-library API or unowned(unsafe): \(offenders)")
    }
}
