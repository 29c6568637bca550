import RemixSystem

/// Byte-string helpers on the safe views the reader hands its sinks (a line, a field of it, an
/// interned string), so that the modules reading lines need no pointer of their own. A `Span`
/// cannot outlive the buffer it views; the pointers below live only inside each call, over exactly
/// the span's `count` bytes.
extension Span where Element == UInt8 {
    /// Whether the bytes are exactly `other`'s.
    @inlinable @inline(__always)
    package func equals(_ other: Span<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0 else { return true }
        return unsafe withUnsafeBufferPointer { mine in
            unsafe other.withUnsafeBufferPointer { theirs in
                unsafe memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0
            }
        }
    }

    /// Whether the bytes are exactly `name`'s.
    @inlinable @inline(__always)
    package func equals(_ name: [UInt8]) -> Bool {
        equals(name.span)
    }

    /// Whether the bytes spell `text` in UTF-8.
    @inlinable @inline(__always)
    package func equals(_ text: StaticString) -> Bool {
        guard count == text.utf8CodeUnitCount else { return false }
        return text.withUTF8Buffer { expected in
            unsafe withUnsafeBufferPointer { mine in
                unsafe mine.count == 0 || memcmp(mine.baseAddress!, expected.baseAddress!, mine.count) == 0
            }
        }
    }

    /// The index of the first `byte`, if any.
    @inlinable
    package func firstIndex(of byte: UInt8) -> Int? {
        unsafe withUnsafeBufferPointer { mine in
            guard let base = mine.baseAddress, let found = unsafe memchr(base, Int32(byte), mine.count) else { return nil }
            return unsafe base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Whether `byte` occurs.
    @inlinable
    package func contains(_ byte: UInt8) -> Bool { firstIndex(of: byte) != nil }

    /// The bytes decoded as UTF-8 (an ill-formed sequence becomes U+FFFD).
    package var string: String {
        unsafe withUnsafeBufferPointer { unsafe String(decoding: $0, as: UTF8.self) }
    }

    /// A copy of the bytes.
    package var array: [UInt8] {
        unsafe withUnsafeBufferPointer { unsafe Array($0) }
    }

    /// Feeds the bytes to `hasher` as `Hasher.combine(bytes:)` does.
    package func hash(into hasher: inout Hasher) {
        unsafe withUnsafeBytes { unsafe hasher.combine(bytes: $0) }
    }
}

extension ByteSlice {
    /// The slice's indices in its line (for `line.extracting(slice.range)`); only for a present slice.
    package var range: Range<Int> {
        assert(isPresent, "an absent field has no bytes")
        return start..<(start + count)
    }
}

extension Array where Element == UInt8 {
    /// Appends the bytes of `span`.
    package mutating func append(contentsOf span: Span<UInt8>) {
        unsafe span.withUnsafeBufferPointer { unsafe append(contentsOf: $0) }
    }
}
