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

    @Test func linuxOnlyImportsArePortableOrConditional() throws {
        var offenders: [String] = []
        for path in Self.swiftFiles() {
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.hasPrefix("import Glibc") {
                let previous = index > 0 ? lines[index - 1] : ""
                if !(previous.hasPrefix("#if canImport(Glibc)") || previous.hasPrefix("#elseif canImport(Glibc)")) {
                    offenders.append("\(path.dropFirst(Self.root.path.count + 1)):\(index + 1)")
                }
            }
        }
        #expect(offenders.isEmpty, "unconditional 'import Glibc' (use #if canImport(Glibc) … #elseif canImport(Darwin)): \(offenders)")
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
