import RemixFormats

/// GrowthBook's hash: FNV-1a 32 over UTF-16 code units, as its SDKs compute it.
///
/// Feeding strings one after another hashes their concatenation without building it.
extension FNV1a where Hash == UInt32 {
    /// Adds the UTF-16 code units of `text`.
    @inline(__always)
    mutating func add(_ text: String) {
        // ASCII text (the common case for ids) has one UTF-16 unit per UTF-8 byte.
        let start = value
        let asciiResult = unsafe text.utf8.withContiguousStorageIfAvailable { unsafe Self.asciiHash(of: $0, from: start) }
        if let known = asciiResult ?? nil {
            value = known
            return
        }
        add(contentsOf: text.utf16)
    }

    /// The hash continuing from `start` over `bytes` when they are all ASCII, else nil.
    @inline(__always)
    private static func asciiHash(of bytes: UnsafeBufferPointer<UInt8>, from start: UInt32) -> UInt32? {
        var hash = FNV1a(continuing: start)
        for unsafe byte in unsafe bytes {
            if byte >= 0x80 { return nil }
            hash.add(byte)
        }
        return hash.value
    }

    /// Adds the UTF-16 code units of `text`.
    @inline(__always)
    mutating func add(_ text: HashText) {
        switch text {
        case .short(let short): add(ascii: short)
        case .text(let string): add(string)
        }
    }

    /// Adds the bytes of ASCII text of at most 16 bytes, one UTF-16 unit each, read from its words.
    @inline(__always)
    mutating func add(ascii text: ShortBytes) {
        var hash = self
        var word = text.low
        for index in 0..<text.count {
            if index == 8 { word = text.high }
            hash.add(UInt8(truncatingIfNeeded: word))
            word &>>= 8
        }
        self = hash
    }

    /// Adds the decimal digits of `number` (JavaScript's `String(n)` of a 32-bit hash).
    ///
    /// Every digit comes from a division by a constant, so the digits are independent of one
    /// another and of the hash, and only the hash's own multiply chain is sequential.
    @inline(__always)
    mutating func addDecimalDigits(of number: UInt32) {
        let n = UInt64(number)
        var hash = self
        @inline(__always) func mix(_ digit: UInt64) {
            hash.add(0x30 &+ UInt8(truncatingIfNeeded: digit))
        }
        if n >= 1_000_000_000 { mix(n / 1_000_000_000) }
        if n >= 100_000_000 { mix(n / 100_000_000 % 10) }
        if n >= 10_000_000 { mix(n / 10_000_000 % 10) }
        if n >= 1_000_000 { mix(n / 1_000_000 % 10) }
        if n >= 100_000 { mix(n / 100_000 % 10) }
        if n >= 10_000 { mix(n / 10_000 % 10) }
        if n >= 1_000 { mix(n / 1_000 % 10) }
        if n >= 100 { mix(n / 100 % 10) }
        if n >= 10 { mix(n / 10 % 10) }
        mix(n % 10)
        self = hash
    }
}
