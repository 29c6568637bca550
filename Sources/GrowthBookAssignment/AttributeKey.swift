import RemixFormats

/// An attribute name with its hash worked out once, when a condition or experiment is compiled,
/// so that looking it up in an `AttributeIndex` hashes nothing.
struct AttributeKey: Sendable {
    let name: String
    let bits: NameBits

    init(_ name: String) {
        self.name = name
        bits = NameBits(name)
    }
}

/// A name's hash, UTF-8 length and first 16 bytes: for names of up to 16 bytes, equal bits mean
/// equal names, so most lookups compare a few words rather than two strings.
struct NameBits: Sendable {
    let hash: UInt64
    let text: ShortText

    init(_ name: String) {
        // A small ASCII name (most are) from its own two words, without lending its bytes.
        if let (low, high, count) = SmallASCII.words(name) {
            var hash = FNV1a64.offsetBasis
            for index in 0..<count {
                let word = index < 8 ? low : high
                hash = FNV1a64.combine(hash, UInt8(truncatingIfNeeded: word >> UInt64(8 * (index & 7))))
            }
            self.hash = hash
            text = ShortText(low: low, high: high, count: count)
            return
        }
        hash = Self.hash(name)
        text = ShortText(name.utf8)
    }

    /// FNV-1a 64 over the UTF-8 bytes: attribute names are chosen by the app, not by users,
    /// so a fast deterministic hash is enough. Over the contiguous bytes: the generic
    /// `FNV1a64.hash` over a `UTF8View` ran unspecialised here, about 300 instructions a byte,
    /// and every session indexes its attributes (docs/performance.md).
    static func hash(_ name: String) -> UInt64 {
        name.utf8.withContiguousStorageIfAvailable { bytes in
            var hash = FNV1a64.offsetBasis
            for byte in bytes { hash = FNV1a64.combine(hash, byte) }
            return hash
        } ?? FNV1a64.hash(name.utf8)
    }
}

/// A byte string's length and first 16 bytes packed into two words (zero-padded), so that two
/// strings of up to 16 bytes compare in three word comparisons.
package struct ShortText: Sendable {
    let low: UInt64
    let high: UInt64
    let count: Int

    init<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count = 0
        for byte in bytes {
            if count < 8 {
                low |= UInt64(byte) << (8 * UInt64(count))
            } else if count < 16 {
                high |= UInt64(byte) << (8 * UInt64(count - 8))
            }
            count += 1
        }
        self.low = low
        self.high = high
        self.count = count
    }

    /// The same for a string's UTF-8: a native string's bytes are copied in one block rather
    /// than shifted in one by one (every session indexes its attributes' names and values).
    init(_ utf8: String.UTF8View) {
        if let text = utf8.withContiguousStorageIfAvailable({ ShortText(contiguous: $0) }) {
            self = text
        } else {
            self.init(utf8.lazy)
        }
    }

    private init(contiguous bytes: UnsafeBufferPointer<UInt8>) {
        var words: (UInt64, UInt64) = (0, 0)
        if let source = bytes.baseAddress {
            withUnsafeMutableBytes(of: &words) { $0.baseAddress?.copyMemory(from: source, byteCount: min(bytes.count, 16)) }
        }
        low = UInt64(littleEndian: words.0)
        high = UInt64(littleEndian: words.1)
        count = bytes.count
    }

    init(low: UInt64, high: UInt64, count: Int) {
        self.low = low
        self.high = high
        self.count = count
    }

    /// `body` applied to the bytes, which must number at most 16.
    @inline(__always)
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let words = (low.littleEndian, high.littleEndian)
        return withUnsafeBytes(of: words) { raw in
            raw.withMemoryRebound(to: UInt8.self) { bytes in
                body(UnsafeBufferPointer(rebasing: bytes.prefix(count)))
            }
        }
    }

    /// Same length and same first 16 bytes; equality when `count <= 16`.
    @inline(__always)
    func prefixMatches(_ other: ShortText) -> Bool {
        (low ^ other.low) | (high ^ other.high) | UInt64(bitPattern: Int64(count ^ other.count)) == 0
    }
}
