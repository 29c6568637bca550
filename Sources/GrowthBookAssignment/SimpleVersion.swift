import RemixFormats

/// Version strings made only of 1–4 digit numbers separated by `.` or `-` (`2.0`, `10.1.0`):
/// the commonest kind, whose padded forms can be compared without building them.
///
/// Such a version pads to `p1-p2-…-pn` (plus `-~` when n is 3) where each part is five
/// characters, spaces then digits. Two such parts compare as text exactly as their keys
/// `digits * 10000 + value` compare as numbers: more digits means fewer leading spaces, and
/// equal lengths compare digit by digit. After n equal parts, what follows decides: the end of
/// the text, `-~`, or `-` and a part that starts with a space.
enum SimpleVersion {
    /// The keys of a padded operand's parts when it is the padded form of a simple version;
    /// `nil` otherwise.
    static func keys(ofPadded units: [UInt16]) -> [UInt32]? {
        var tokens = units.split(separator: 0x2D, omittingEmptySubsequences: false)
        if tokens.count == 4, tokens[3].elementsEqual([0x7E]) {
            tokens.removeLast()
        } else if tokens.count == 3 {
            return nil
        }
        var keys: [UInt32] = []
        for token in tokens {
            guard token.count == 5 else { return nil }
            let digits = token.drop { $0 == 0x20 }
            guard digits.count >= 1, digits.count <= 4,
                  digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            let value = digits.reduce(UInt32(0)) { $0 * 10 + UInt32($1 - 0x30) }
            keys.append(UInt32(digits.count) * 10_000 + value)
        }
        return keys
    }

    /// The keys of ASCII `text` (at most 16 bytes) when it is a simple version of at most four
    /// parts, sixteen bits each from the lowest (a key is never 0, so the first empty lane ends
    /// them); 0 otherwise. A context prepares its attributes' once (``AttributeIndex``), so a
    /// version test compares keys instead of reading the text again.
    static func packedKeys(_ text: ShortBytes) -> UInt64 {
        guard text.count <= 16 else { return 0 }
        var packed: UInt64 = 0
        var shift: UInt64 = 0
        guard let count = parts(of: text, { key in
            if shift < 64 { packed |= UInt64(key) << shift }
            shift &+= 16
        }), count <= 4 else { return 0 }
        return packed
    }

    /// ``order(_:_:)`` of a version whose keys ``packedKeys(_:)`` gave (not 0).
    @inline(__always)
    static func order(packed: UInt64, _ keys: UnsafeBufferPointer<UInt32>) -> Int {
        var part = 0
        var rest = packed
        while rest != 0 {
            let key = UInt32(truncatingIfNeeded: rest & 0xFFFF)
            if part < keys.count, unsafe key != keys[part] { return unsafe key < keys[part] ? -1 : 1 }
            part &+= 1
            rest >>= 16
        }
        return order(afterEqualParts: part, keys.count)
    }

    /// `PaddedVersion.compare` of ASCII `text` (at most 16 bytes) with the operand whose keys are
    /// `keys`; `nil` when `text` is not a simple version.
    @inline(__always)
    static func order(_ text: ShortBytes, _ keys: UnsafeBufferPointer<UInt32>) -> Int? {
        var ordering = 0
        var part = 0
        guard let count = parts(of: text, { key in
            if ordering == 0, part < keys.count, unsafe key != keys[part] { ordering = unsafe key < keys[part] ? -1 : 1 }
            part &+= 1
        }) else { return nil }
        return ordering != 0 ? ordering : order(afterEqualParts: count, keys.count)
    }

    /// Hands `body` the key of each part of ASCII `text` (at most 16 bytes) in order and returns
    /// how many there were; `nil` when `text` is not a simple version (the keys handed over so far
    /// then mean nothing).
    @inline(__always)
    private static func parts(of text: ShortBytes, _ body: (UInt32) -> Void) -> Int? {
        var parts = 0
        var value: UInt32 = 0
        var length: UInt32 = 0
        // Wrapping arithmetic: a part has at most four digits, a key at most 49 999.
        var word = text.low
        for offset in 0..<text.count {
            if offset == 8 { word = text.high }
            let byte = UInt8(truncatingIfNeeded: word)
            word >>= 8
            let digit = byte &- 0x30
            if digit < 10 {
                if length == 4 { return nil }
                value = value &* 10 &+ UInt32(digit)
                length &+= 1
            } else if byte == 0x2E || byte == 0x2D, length > 0 {
                body(length &* 10_000 &+ value)
                parts &+= 1
                value = 0
                length = 0
            } else {
                return nil
            }
        }
        if length == 0 { return nil }
        body(length &* 10_000 &+ value)
        return parts &+ 1
    }

    /// The order of a version of `parts` parts against an operand of `operandParts`, all the parts
    /// both have being equal: what follows the shorter one decides (the end of the text, `-~`
    /// after three parts, or `-` and a part that starts with a space).
    @inline(__always)
    private static func order(afterEqualParts parts: Int, _ operandParts: Int) -> Int {
        if parts == operandParts { return 0 }
        if parts < operandParts { return parts == 3 ? 1 : -1 }
        return operandParts == 3 ? -1 : 1
    }
}
