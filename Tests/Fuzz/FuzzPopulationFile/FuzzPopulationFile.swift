import FuzzSupport
import RemixSimulation

/// libFuzzer's driver runs `fuzzPopulationFile` on every input.
@_cdecl("FuzzPopulationFile_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzPopulationFile)
}

/// Population files: any UTF-8 text is parsed as one; a problem must be a diagnostic, never a
/// crash, a hang or unbounded memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPopulationFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let text = String(validating: bytes(data, size), as: UTF8.self) else { return 0 }
    let (population, problems) = PopulationFile.parse(text, file: "fuzz.yaml")
    if population == nil, problems.isEmpty {
        finding("FuzzPopulationFile", "a population file that fails gives no reason")
    }
    return 0
}
