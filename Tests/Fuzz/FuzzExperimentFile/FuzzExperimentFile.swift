import FuzzSupport
import RemixExperiments
import RemixHost
import RemixKit

/// libFuzzer's driver runs `fuzzExperimentFile` on every input.
@_cdecl("FuzzExperimentFile_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzExperimentFile)
}

/// Experiment files: any UTF-8 text is parsed as one, validated against the built-in modules, and
/// a file that reads is run through the assignment engine for a few sessions. A problem must be a
/// diagnostic, never a crash, a hang or unbounded memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExperimentFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let text = String(validating: bytes(data, size), as: UTF8.self) else { return 0 }
    let (definition, problems) = ExperimentFileParser.parse(text, file: "fuzz.yaml")
    guard let definition else {
        if problems.isEmpty { finding("FuzzExperimentFile", "an experiment file that fails gives no reason") }
        return 0
    }
    if let registry = FuzzRegistry.shared {
        _ = ExperimentValidator(registry: registry).validate(ExperimentSet(definitions: [definition]))
    }
    let engine = AssignmentEngine()
    for (id, platform) in [("u1", "phone"), ("u2", "tablet"), ("", "phone")] {
        let context = AssignmentContext(attributes: ["id": .string(id), "platform": .string(platform), "country": "GB"])
        _ = engine.run(definition.experiment, context: context)
    }
    return 0
}

enum FuzzRegistry {
    /// The built-in modules, registered once.
    static let shared: FeatureRegistry? = try? BuiltInModules.registry()
}
