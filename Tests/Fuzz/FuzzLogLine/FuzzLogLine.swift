import FuzzChecks
import FuzzSupport

/// libFuzzer's driver runs `fuzzOneInput` on every input.
@_cdecl("FuzzLogLine_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOneInput)
}

/// One input through `FuzzChecks.logLine`; a finding aborts, so libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    if let message = FuzzChecks.logLine(bytes(data, size)) { finding("FuzzLogLine", message) }
    return 0
}
