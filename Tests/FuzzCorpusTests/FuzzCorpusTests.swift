import FuzzChecks
import Foundation
import Testing

/// Every committed fuzz input — the seeds, and every finding a fuzzer ever kept in
/// `Tests/Fuzz/Findings/TARGET/` — goes through its target's check on every `swift test`: a
/// crash or a finding fails here, so an input that once broke a parser stays a regression test
/// without being rewritten as one by hand.
@Suite struct FuzzCorpusTests {
    /// Every target's check.
    static let checks = FuzzChecks.byTarget

    /// (target, file) for every committed input, seeds and findings.
    static let inputs: [FuzzInputFile] = {
        let fuzz = FuzzChecks.repository.appendingPathComponent("Tests/Fuzz")
        var inputs: [FuzzInputFile] = []
        for folder in ["Seeds", "Findings"] {
            for target in checks.keys.sorted() {
                let directory = fuzz.appendingPathComponent("\(folder)/\(target)")
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                for name in names.sorted() where !name.hasPrefix(".") {
                    inputs.append(FuzzInputFile(target: target, path: directory.appendingPathComponent(name).path))
                }
            }
        }
        return inputs
    }()

    @Test func everyTargetHasSeeds() {
        let seeded = Set(Self.inputs.filter { $0.path.contains("/Seeds/") }.map(\.target))
        #expect(seeded == Set(Self.checks.keys), "targets without seeds: \(Set(Self.checks.keys).subtracting(seeded))")
    }

    @Test(arguments: inputs)
    func theInputPassesItsTargetsCheck(_ input: FuzzInputFile) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: input.path))
        let check = try #require(Self.checks[input.target])
        let message = data.withUnsafeBytes { raw in check(raw.bindMemory(to: UInt8.self)) }
        #expect(message == nil, "\(input.target) on \(input.path): \(message ?? "")")
    }

    @Test func theRepositorysOwnInputsPassToo() throws {
        // The YAML targets also start from the repository's experiments/ (as .ci/fuzz does).
        let folder = FuzzChecks.repository.appendingPathComponent("experiments")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
        #expect(files.count >= 8)
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            for target in ["FuzzExperimentFile", "FuzzPopulationFile", "FuzzMetricsFile"] {
                let message = data.withUnsafeBytes { raw in FuzzChecks.byTarget[target]?(raw.bindMemory(to: UInt8.self)) ?? nil }
                #expect(message == nil, "\(target) on \(file): \(message ?? "")")
            }
        }
    }
}

/// One committed fuzz input and the target it belongs to.
struct FuzzInputFile: Sendable, CustomTestStringConvertible {
    let target: String
    let path: String

    var testDescription: String { "\(target): \((path as NSString).lastPathComponent)" }
}
