import FuzzChecks
import FuzzSupport

/// libFuzzer's driver runs `fuzzOneInput` on every input.
@_cdecl("FuzzStoreURL_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOneInput)
}

/// One input through `FuzzChecks.storeURL`; a finding aborts, so libFuzzer keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    if let message = FuzzChecks.storeURL(bytes(data, size)) { finding("FuzzStoreURL", message) }
    return 0
}
