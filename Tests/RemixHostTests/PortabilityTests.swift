import Foundation
import RemixTestSupport
import Testing

/// Nothing here builds on macOS in CI, so the sources are checked instead: every Linux-only import
/// or path is behind a condition, and the build folder is not found through `/proc` alone.
@Suite struct PortabilityTests {
    static var root: URL { Repository.root }

    static func swiftFiles() -> [String] {
        ["Sources", "Tests", "features"].flatMap { folder -> [String] in
            let base = root.appendingPathComponent(folder).path
            return (FileManager.default.subpaths(atPath: base) ?? []).filter { $0.hasSuffix(".swift") && !$0.contains(".build") }
                .map { base + "/" + $0 }
        }
    }

    /// The platform's C library is imported in one place, the RemixSystem shim; every other file
    /// imports RemixSystem (with or without attributes such as `@preconcurrency`).
    @Test func onlyTheShimImportsTheCLibrary() throws {
        let shim = "Sources/RemixKit/Sources/RemixSystem/RemixSystem.swift"
        let library = /^\s*(@\w+\s+)*import\s+(Glibc|Darwin|Musl)\b/
        var offenders: [String] = []
        for path in Self.swiftFiles() where !path.hasSuffix(shim) {
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.contains(library) {
                offenders.append("\(path.dropFirst(Self.root.path.count + 1)):\(index + 1)")
            }
            let text = lines.joined(separator: "\n")
            if !path.hasSuffix("PortabilityTests.swift"), text.contains("Glibc.") || text.contains("Darwin.") {
                offenders.append("\(path.dropFirst(Self.root.path.count + 1)): names Glibc or Darwin (use SystemCalls)")
            }
        }
        #expect(offenders.isEmpty, "import RemixSystem instead of the C library: \(offenders)")
        #expect(try String(contentsOfFile: Self.root.appendingPathComponent(shim).path, encoding: .utf8).contains("import Darwin"))
        #expect(Self.swiftFiles().count > 200)
    }

    @Test func procPathsHaveAFallback() throws {
        for path in Self.swiftFiles() where !path.hasSuffix("PortabilityTests.swift") {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            guard text.contains("\"/proc/self") else { continue }
            // /proc/self is read only after checking that a path exists, or inside #if os(Linux).
            #expect(text.contains("fileExists(atPath:") || text.contains("#if os(Linux)"),
                    "\(path.dropFirst(Self.root.path.count + 1)) reads /proc without a fallback")
        }
    }
}
