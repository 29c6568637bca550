import FuzzSupport
import RemixAnalysis

/// libFuzzer's driver runs `fuzzMetricsFile` on every input.
@_cdecl("FuzzMetricsFile_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzMetricsFile)
}

/// Metric files (`metrics.yaml`): any UTF-8 text is parsed as one; every key of what parses must
/// resolve, and a ratio's parts must be keys — never a crash, a hang or unbounded memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetricsFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let text = String(validating: bytes(data, size), as: UTF8.self) else { return 0 }
    let (catalog, problems) = MetricsFileParser.parse(text, file: "fuzz.yaml")
    guard problems.isEmpty else { return 0 }
    for metric in catalog.definitions {
        if catalog[metric.key] == nil { finding("FuzzMetricsFile", "metric '\(metric.key)' does not resolve") }
        for part in [metric.numerator, metric.denominator].compactMap({ $0 }) where catalog[part] == nil {
            finding("FuzzMetricsFile", "ratio '\(metric.key)' names '\(part)', which is not a key")
        }
    }
    return 0
}
