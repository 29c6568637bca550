import Foundation

/// What every fuzz target receives: the input bytes (`data` may be nil when `size` is 0).
public typealias FuzzInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// The entry point of a fuzz target. SwiftPM links an executable's `main` to `<Target>_main`, so
/// each target defines that symbol and hands its test function to libFuzzer's driver here.
public func runLibFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                         _ body: FuzzInput) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, body)
}

/// libFuzzer's C entry point (compiler-rt's FuzzerInterface.h).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ body: FuzzInput
) -> CInt

/// The input's bytes.
public func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
}

/// Reports a finding (a disagreement or a broken promise) and aborts, so libFuzzer keeps the input.
public func finding(_ target: String, _ message: String) -> Never {
    FileHandle.standardError.write(Data("\(target) finding: \(message)\n".utf8))
    abort()
}
