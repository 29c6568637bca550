import Foundation
import RemixExperiments
import RemixTestSupport
import Testing

/// GrowthBook's cross-SDK conformance cases, read from `../shared/conformance/` beside the
/// package root (never copied into the repository).
enum ConformanceSuite {
    struct MissingData: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "\(path): conformance data not found; check out ../shared beside the package root"
        }
    }

    struct MalformedCase: Error, CustomStringConvertible {
        let section: String
        let detail: String
        var description: String { "growthbook-cases.json section \(section): \(detail)" }
    }

    /// `<package root>/../shared/conformance/growthbook-cases.json`.
    static var fileURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // RemixExperimentsTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
            .deletingLastPathComponent()  // the root's parent, which holds shared/
            .appendingPathComponent("shared/conformance/growthbook-cases.json")
    }

    /// Whether the conformance data is beside the checkout.
    static var isAvailable: Bool { FileManager.default.fileExists(atPath: fileURL.path) }

    /// Why the conformance tests are skipped on this checkout.
    static let skipReason: Comment = Comment(rawValue: "GrowthBook's conformance data (../shared/conformance) is not "
        + "beside this checkout; the tests skip here and run in CI (CI=true), where its absence fails them")

    /// The cases of one section, each a positional tuple.
    static func section(_ name: String) throws -> [[AttributeValue]] {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else {
            throw MissingData(path: fileURL.path)
        }
        let suite = try AttributeValue.parse(jsonData: data)
        guard let cases = suite[name]?.arrayValue else {
            throw MalformedCase(section: name, detail: "missing or not an array")
        }
        return try cases.map { item in
            guard let tuple = item.arrayValue else {
                throw MalformedCase(section: name, detail: "a case is not an array")
            }
            return tuple
        }
    }

    /// Prints the per-section summary line the project's reports look for.
    static func report(_ section: String, passed: Int, failed: Int, skipped: Int) {
        if failed > 0 {
            print("conformance \(section): \(passed) passed, \(failed) failed, \(skipped) skipped")
        } else {
            print("conformance \(section): \(passed) passed, \(skipped) skipped")
        }
    }
}

/// Counts per-case outcomes while recording one expectation per case.
struct CaseTally {
    let section: String
    private(set) var passed = 0
    private(set) var failed = 0
    private(set) var skipped = 0

    init(_ section: String) {
        self.section = section
    }

    mutating func check(
        _ ok: Bool, _ message: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(ok, Comment(rawValue: "\(section): \(message())"), sourceLocation: sourceLocation)
        if ok { passed += 1 } else { failed += 1 }
    }

    /// Counts a case not run, printing why.
    mutating func skip(_ name: String, because reason: String) {
        print("conformance \(section): skipped '\(name)': \(reason)")
        skipped += 1
    }

    func report() {
        ConformanceSuite.report(section, passed: passed, failed: failed, skipped: skipped)
    }
}

extension AttributeValue {
    /// A short JSON-ish rendering for failure messages.
    var rendered: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return String(flag)
        case .number(let number): return String(number)
        case .string(let text): return "\"\(text)\""
        case .array(let elements): return "[" + elements.map(\.rendered).joined(separator: ", ") + "]"
        case .object(let members):
            let body = members.keys.sorted().map { "\"\($0)\": \(members[$0]?.rendered ?? "")" }
            return "{" + body.joined(separator: ", ") + "}"
        }
    }
}
