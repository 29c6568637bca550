import Foundation
import RemixTestSupport
import Testing

/// The public surface is the real boundary. The root package's modules are linked by nothing
/// outside it — its products are the `remix`, `remix-bench` and `remix-fit-truths` tools and the example plugins — so
/// what one of them offers another is `package`, not `public`; `public` is left to what crosses a
/// boundary: RemixKit and the feature modules (packages of their own, which plugins link), the
/// libFuzzer entry points, and the CLI's entry point that the `remix` executable calls. One
/// exception is measured, not a boundary: Swift 6.3 compiles a call to an `@inlinable package`
/// function in another module as a call to its unspecialised body, so the hot `@inlinable`
/// helpers of RemixFormats that other modules call per field or string are `public`
/// (docs/performance.md).
@Suite struct PublicSurfaceTests {
    /// Folders whose `public` is a boundary, and the files public only to be inlined.
    static let boundaries = ["Sources/RemixKit/", "Sources/RemixCLI/", "Tests/Fuzz/",
                             "Sources/RemixFormats/ShortBytes.swift", "Sources/RemixFormats/FNV1a.swift"]

    @Test func rootModulesOfferPackageNotPublic() throws {
        let root = Repository.root.path
        let declaration = /^\s*(@\w+(\([^)]*\))?\s+)*public\b/
        var offenders: [String] = []
        for folder in ["Sources", "Tests"] {
            let base = root + "/" + folder
            for path in FileManager.default.subpaths(atPath: base) ?? [] where path.hasSuffix(".swift") && !path.contains(".build") {
                let relative = folder + "/" + path
                guard !Self.boundaries.contains(where: relative.hasPrefix) else { continue }
                let lines = try String(contentsOfFile: base + "/" + path, encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false)
                for (index, line) in lines.enumerated() where line.contains(declaration) {
                    offenders.append("\(relative):\(index + 1)")
                }
            }
        }
        #expect(offenders.isEmpty, """
            \(offenders.count) public declarations in root-package modules; make them package, e.g. \
            sed -i -E 's/^([[:space:]]*(@[A-Za-z_]+(\\([^)]*\\))?[[:space:]]+)*)public\\b/\\1package/' FILE: \
            \(offenders.prefix(20))
            """)
    }
}
