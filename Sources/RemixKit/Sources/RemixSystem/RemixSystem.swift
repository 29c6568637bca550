// The platform's C library, imported in this one place: every Remix module that calls the system
// (files, descriptors, signals, the dynamic loader, globbing) imports RemixSystem instead of Glibc or
// Darwin, so that porting means changing this file. Tests/RemixHostTests/PortabilityTests checks
// that no other file imports a C library module.
#if canImport(Glibc)
@_exported @unsafe @preconcurrency import Glibc
#elseif canImport(Musl)
@_exported @unsafe @preconcurrency import Musl
#elseif canImport(Darwin)
@_exported @unsafe @preconcurrency import Darwin
#else
#error("RemixSystem needs Glibc, Musl or Darwin")
#endif

/// System calls whose plain names a type's own members shadow (`read`, `write`, `open`, `close`).
///
/// Invariant of its `unsafe` uses: each passes its caller's buffer and count to the C library
/// unchanged, so the caller answers for the buffer holding `count` bytes for the call.
public enum SystemCalls {
    /// `read(2)`.
    @inlinable
    public static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        unsafe system_read(descriptor, buffer, count)
    }

    /// `write(2)`.
    @inlinable
    public static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        unsafe system_write(descriptor, buffer, count)
    }

    /// Writes all `count` bytes at `buffer` with `write(2)`, again when a signal interrupts it.
    /// Returns how many bytes were written and, when it stopped short, the `errno` that stopped
    /// it (`nil` when done, or when a write wrote nothing without an error).
    @inlinable
    public static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> (written: Int, error: Int32?) {
        var written = 0
        while written < count {
            let result = unsafe system_write(descriptor, buffer + written, count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return (written, errno)
            }
            if result == 0 { break }
            written += result
        }
        return (written, nil)
    }

    /// `open(2)` without a mode (no file is created).
    @inlinable
    public static func open(_ path: String, _ flags: Int32) -> Int32 {
        system_open(path, flags)
    }

    /// C's `stdout` (a global the C library may change, which Swift 6 does not let other modules read).
    public static var standardOutput: UnsafeMutablePointer<FILE>? { unsafe stdout }

    /// C's `stderr`.
    public static var standardError: UnsafeMutablePointer<FILE>? { unsafe stderr }

    /// `close(2)`.
    @discardableResult @inlinable
    public static func close(_ descriptor: Int32) -> Int32 {
        system_close(descriptor)
    }
}

// The C functions under names no type shadows.
@inlinable func system_read(_ d: Int32, _ b: UnsafeMutableRawPointer?, _ n: Int) -> Int { unsafe read(d, b, n) }
@inlinable func system_write(_ d: Int32, _ b: UnsafeRawPointer?, _ n: Int) -> Int { unsafe write(d, b, n) }
@inlinable func system_open(_ path: String, _ flags: Int32) -> Int32 { unsafe open(path, flags) }
@inlinable func system_close(_ d: Int32) -> Int32 { close(d) }
