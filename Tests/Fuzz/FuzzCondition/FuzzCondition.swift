import FuzzSupport
import Foundation
import RemixExperiments

/// libFuzzer's driver runs `fuzzCondition` on every input.
@_cdecl("FuzzCondition_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzCondition)
}

/// GrowthBook targeting conditions: the input is JSON `[condition, attributes, savedGroups]` (the
/// shape of the conformance suite's `evalCondition` cases; missing parts are `{}`). The condition
/// is compiled and evaluated both ways the engine has — the `ConditionNode` tree over the
/// attribute dictionary, which follows the JavaScript SDK's `evalCondition` step by step, and the
/// flat fast path over an `AssignmentContext`'s attribute index — and both must give the same
/// answer. Any other JSON value is compiled and tested as a whole.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCondition(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let value = try? AttributeValue.parse(jsonData: Data(bytes(data, size))) else { return 0 }
    let parts = value.arrayValue ?? [value]
    guard let condition = parts.first else { return 0 }
    let attributes = parts.count > 1 ? parts[1] : .object([:])
    let groups = parts.count > 2 ? parts[2].objectValue ?? [:] : [:]
    let compiled = Condition(parsing: condition)
    guard case .object(let members) = attributes else {
        _ = compiled.evaluate(value: attributes, savedGroups: groups)
        return 0
    }
    let tree = compiled.evaluate(members, savedGroups: groups)
    let indexed = compiled.evaluate(in: AssignmentContext(attributes: members, savedGroups: groups))
    if tree != indexed {
        finding("FuzzCondition", "tree \(tree), indexed \(indexed)\ninput: \(value)")
    }
    // Compiling and evaluating at once (GrowthBook's evalCondition) agrees too.
    if Condition.evaluate(condition, attributes: members, savedGroups: groups) != tree {
        finding("FuzzCondition", "evalCondition differs\ninput: \(value)")
    }
    return 0
}
