/// A running FNV-1a 32-bit hash over UTF-16 code units, as GrowthBook's SDKs compute it.
///
/// Feeding strings one after another hashes their concatenation without building it.
struct FNV1a: Sendable {
    static let offsetBasis: UInt32 = 0x811c_9dc5
    static let prime: UInt32 = 0x0100_0193

    private(set) var state: UInt32

    init(state: UInt32 = FNV1a.offsetBasis) {
        self.state = state
    }

    @inline(__always)
    mutating func add(unit: UInt16) {
        state = (state ^ UInt32(unit)) &* Self.prime
    }

    /// Adds the UTF-16 code units of `text`.
    @inline(__always)
    mutating func add(_ text: String) {
        let start = state
        // ASCII text (the common case for ids) has one UTF-16 unit per UTF-8 byte.
        let asciiResult: UInt32?? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var hash = start
            for byte in bytes {
                if byte >= 0x80 { return nil }
                hash = (hash ^ UInt32(byte)) &* Self.prime
            }
            return hash
        }
        if let known = asciiResult ?? nil {
            state = known
            return
        }
        var hash = start
        for unit in text.utf16 {
            hash = (hash ^ UInt32(unit)) &* Self.prime
        }
        state = hash
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
    mutating func add(ascii text: ShortText) {
        var hash = state
        var word = text.low
        for index in 0..<text.count {
            if index == 8 { word = text.high }
            hash = (hash ^ UInt32(truncatingIfNeeded: word & 0xFF)) &* Self.prime
            word &>>= 8
        }
        state = hash
    }

    /// Adds UTF-16 code units already extracted from a string.
    @inline(__always)
    mutating func add(units: [UInt16]) {
        var hash = state
        for unit in units {
            hash = (hash ^ UInt32(unit)) &* Self.prime
        }
        state = hash
    }

    /// Adds the decimal digits of `number` (JavaScript's `String(n)` of a 32-bit hash).
    ///
    /// Every digit comes from a division by a constant, so the digits are independent of one
    /// another and of the hash, and only the hash's own multiply chain is sequential.
    @inline(__always)
    mutating func addDecimalDigits(of number: UInt32) {
        let n = UInt64(number)
        var hash = state
        @inline(__always) func mix(_ digit: UInt64) {
            hash = (hash ^ (0x30 &+ UInt32(truncatingIfNeeded: digit))) &* Self.prime
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
        state = hash
    }
}
