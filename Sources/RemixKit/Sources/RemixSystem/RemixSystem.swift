// The platform's C library, imported in this one place: every Remix module that calls the system
// (files, descriptors, signals, the dynamic loader, globbing) imports RemixSystem instead of Glibc or
// Darwin, so that porting means changing this file. Tests/RemixHostTests/PortabilityTests checks
// that no other file imports a C library module.
#if canImport(Glibc)
@_exported @preconcurrency import Glibc
#elseif canImport(Musl)
@_exported @preconcurrency import Musl
#elseif canImport(Darwin)
@_exported @preconcurrency import Darwin
#else
#error("RemixSystem needs Glibc, Musl or Darwin")
#endif

/// System calls whose plain names a type's own members shadow (`read`, `write`, `open`, `close`).
public enum SystemCalls {
    /// `read(2)`.
    @inlinable
    public static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        system_read(descriptor, buffer, count)
    }

    /// `write(2)`.
    @inlinable
    public static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        system_write(descriptor, buffer, count)
    }

    /// Writes all `count` bytes at `buffer` with `write(2)`, again when a signal interrupts it.
    /// Returns how many bytes were written and, when it stopped short, the `errno` that stopped
    /// it (`nil` when done, or when a write wrote nothing without an error).
    @inlinable
    public static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> (written: Int, error: Int32?) {
        var written = 0
        while written < count {
            let result = system_write(descriptor, buffer + written, count - written)
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
    public static var standardOutput: UnsafeMutablePointer<FILE>? { stdout }

    /// C's `stderr`.
    public static var standardError: UnsafeMutablePointer<FILE>? { stderr }

    /// `close(2)`.
    @discardableResult @inlinable
    public static func close(_ descriptor: Int32) -> Int32 {
        system_close(descriptor)
    }
}

// The C functions under names no type shadows.
@inlinable func system_read(_ d: Int32, _ b: UnsafeMutableRawPointer?, _ n: Int) -> Int { read(d, b, n) }
@inlinable func system_write(_ d: Int32, _ b: UnsafeRawPointer?, _ n: Int) -> Int { write(d, b, n) }
@inlinable func system_open(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
@inlinable func system_close(_ d: Int32) -> Int32 { close(d) }
