import FuzzChecks
import FuzzSupport

/// libFuzzer's driver runs `fuzzOneInput` on every input.
@_cdecl("FuzzCondition_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOneInput)
}

/// One input through `FuzzChecks.condition`; a finding aborts, so libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    if let message = FuzzChecks.condition(bytes(data, size)) { finding("FuzzCondition", message) }
    return 0
}
