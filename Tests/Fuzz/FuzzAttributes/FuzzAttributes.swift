import FuzzSupport
import Foundation
import RemixExperiments

/// libFuzzer's driver runs `fuzzAttributes` on every input.
@_cdecl("FuzzAttributes_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzAttributes)
}

/// `--attributes` JSON as `remix assign` reads it: any bytes are parsed as JSON; an object becomes
/// a session's attributes, which the repository's own experiment conditions and the assignment
/// engine then see. Bad JSON must be an error, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAttributes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: bytes(data, size), as: UTF8.self)
    guard let value = try? AttributeValue.parse(json: text), case .object(let attributes) = value else { return 0 }
    let context = AssignmentContext(attributes: attributes, savedGroups: RepositoryExperiments.set.savedGroups)
    let engine = AssignmentEngine()
    for definition in RepositoryExperiments.set.definitions {
        _ = engine.run(definition.experiment, context: context)
    }
    return 0
}

enum RepositoryExperiments {
    /// The experiment files in the repository's `experiments/`, read once.
    static let set: ExperimentSet = {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("experiments").path
        return ExperimentSet.load(paths: [folder]).0
    }()
}
