/// Keys: the fields the analysis reads told apart from the rest, and the top-level numbers kept.
extension LineScanner {
    /// The fields the analysis reads, told apart by length and a byte or two.
    enum Key {
        case ts, type, user, experiment, variation, variationId, inExperiment, hashUsed, screen, feature, phase, other
        /// One of the scanner's `numericNames`.
        case numeric

        init(_ name: Span<UInt8>) {
            guard !name.isEmpty else {
                self = .other
                return
            }
            let first = name[0]
            func spells(_ word: StaticString, _ key: Key) -> Key {
                word.withUTF8Buffer { expected in
                    for index in 1..<expected.count where unsafe name[index] != expected[index] { return .other }
                    return key
                }
            }
            switch name.count {
            case 2 where first == UInt8(ascii: "t"): self = name[1] == UInt8(ascii: "s") ? .ts : .other
            case 4 where first == UInt8(ascii: "t"): self = spells("type", .type)
            case 4 where first == UInt8(ascii: "u"): self = spells("user", .user)
            case 5 where first == UInt8(ascii: "p"): self = spells("phase", .phase)
            case 6 where first == UInt8(ascii: "s"): self = spells("screen", .screen)
            case 7 where first == UInt8(ascii: "f"): self = spells("feature", .feature)
            case 8 where first == UInt8(ascii: "h"): self = spells("hashUsed", .hashUsed)
            case 9 where first == UInt8(ascii: "v"): self = spells("variation", .variation)
            case 10 where first == UInt8(ascii: "e"): self = spells("experiment", .experiment)
            case 11 where first == UInt8(ascii: "v"): self = spells("variationId", .variationId)
            case 12 where first == UInt8(ascii: "i"): self = spells("inExperiment", .inExperiment)
            default: self = .other
            }
        }
    }

    /// A key's name (position after its opening quote); escaped keys are decoded to be matched.
    mutating func keyName() -> Key? {
        if position + 16 <= count, let key = plainKey() { return key }
        let start = position
        var escaped = false
        guard stringBody(escaped: &escaped) else { return nil }
        let name = bytes.extracting(start..<(position - 1))
        guard escaped else { return numericKey(Key(name), name) }
        guard let decoded = EscapeDecoder.decode(name) else { return .other }
        return numericKey(Key(decoded.span), decoded.span)
    }

    /// The key at `position` when it is printable ASCII of at most 15 bytes, told from its one or
    /// two 8-byte words (position then after its closing quote); nil, with nothing taken, otherwise.
    @inline(__always)
    private mutating func plainKey() -> Key? {
        let first = UInt64(littleEndian: word(position))
        var special = Self.specialBytes(first)
        var length = 0, second: UInt64 = 0
        if special == 0 {
            second = UInt64(littleEndian: word(position + 8))
            special = Self.specialBytes(second)
            guard special != 0 else { return nil }
            let tail = special.trailingZeroBitCount >> 3
            guard (second >> UInt64(tail * 8)) & 0xFF == UInt64(ASCII.quote) else { return nil }
            length = 8 + tail
            second &= (1 << UInt64(tail * 8)) &- 1
        } else {
            length = special.trailingZeroBitCount >> 3
            guard (first >> UInt64(length * 8)) & 0xFF == UInt64(ASCII.quote) else { return nil }
        }
        assert(position + length <= count, "a key past the line")
        let start = position
        position += length + 1
        let head = length >= 8 ? first : first & ((1 << UInt64(length * 8)) &- 1)
        let key: Key
        // The names' bytes as little-endian words: "ts", "type", "user", … ("variatio" + "n").
        switch length {
        case 2: key = head == 0x7374 ? .ts : .other
        case 4: key = head == 0x6570_7974 ? .type : head == 0x7265_7375 ? .user : .other
        case 5: key = head == 0x65_7361_6870 ? .phase : .other
        case 6: key = head == 0x6E65_6572_6373 ? .screen : .other
        case 7: key = head == 0x65_7275_7461_6566 ? .feature : .other
        case 8: key = head == 0x6465_7355_6873_6168 ? .hashUsed : .other
        case 9: key = head == 0x6F69_7461_6972_6176 && second == 0x6E ? .variation : .other
        case 10: key = head == 0x656D_6972_6570_7865 && second == 0x746E ? .experiment : .other
        case 11: key = head == 0x6F69_7461_6972_6176 && second == 0x6449_6E ? .variationId : .other
        case 12: key = head == 0x6972_6570_7845_6E69 && second == 0x746E_656D ? .inExperiment : .other
        default: key = .other
        }
        // The name's bytes only when a number may be wanted (most keys are named ones, or none is).
        guard key == .other, !numericNames.isEmpty else { return key }
        return numericKey(key, unsafe bytes.extracting(unchecked: start..<(start + length)))
    }

    /// `.numeric` (remembering which) when `name` is one of `numericNames`.
    @inline(__always)
    private mutating func numericKey(_ key: Key, _ name: Span<UInt8>) -> Key {
        guard key == .other, !numericNames.isEmpty else { return key }
        for index in numericNames.indices where Self.equal(name, numericNames[index].span) {
            numericIndex = index
            return .numeric
        }
        return key
    }

    /// Whether `bytes` are exactly `name`.
    private static func equal(_ bytes: Span<UInt8>, _ name: Span<UInt8>) -> Bool {
        guard bytes.count == name.count else { return false }
        for index in 0..<name.count where bytes[index] != name[index] { return false }
        return true
    }
}
