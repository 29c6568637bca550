/// Values by name, for the registry's lookups (a simulated session makes several): an ASCII name
/// is hashed a word at a time (``hash(_:)``), a few instructions a byte where a dictionary runs
/// SipHash, and found by linear probing in a table kept at most half full. Names are equal as
/// strings are (canonical equivalence): the rare name with other characters is kept apart and
/// compared with every lookup that the table does not answer.
struct NameTable<Value> {
    private struct Slot {
        let hash: UInt64
        let name: String
        var value: Value
    }

    private var slots: [Slot?] = Array(repeating: nil, count: 16)
    /// Names that are not all ASCII.
    private var others: [Slot] = []
    /// How many names it holds.
    private(set) var count = 0

    /// The value of `name`, if there is one.
    subscript(name: String) -> Value? {
        guard let hash = Self.hash(name) else {
            return others.first { $0.name == name }?.value
                ?? slots.lazy.compactMap { $0 }.first { $0.name == name }?.value
        }
        if case let (index, true) = Self.index(of: name, hash: hash, in: slots) { return slots[index]?.value }
        return others.isEmpty ? nil : others.first { $0.name == name }?.value
    }

    /// Gives `name` the value `value`, replacing the one it had.
    mutating func set(_ value: Value, for name: String) {
        if let other = others.firstIndex(where: { $0.name == name }) {
            others[other].value = value
            return
        }
        guard let hash = Self.hash(name) else {
            if let index = slots.firstIndex(where: { $0?.name == name }) {
                slots[index]?.value = value
            } else {
                others.append(Slot(hash: 0, name: name, value: value))
                count += 1
            }
            return
        }
        if 2 * (count + 1) > slots.count { grow() }
        let (index, found) = Self.index(of: name, hash: hash, in: slots)
        if found {
            slots[index]?.value = value
        } else {
            slots[index] = Slot(hash: hash, name: name, value: value)
            count += 1
        }
    }

    /// The slot holding `name`, or the empty slot where it would go.
    private static func index(of name: String, hash: UInt64, in slots: [Slot?]) -> (Int, found: Bool) {
        var index = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while let slot = slots[index] {
            if slot.hash == hash, slot.name == name { return (index, true) }
            index = (index + 1) & (slots.count - 1)
        }
        return (index, false)
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: 2 * old.count)
        for case let slot? in old {
            let (index, _) = Self.index(of: slot.name, hash: slot.hash, in: slots)
            slots[index] = slot
        }
    }

    /// A hash of the name's bytes when they are all ASCII, else nil: FNV-1a's multiply taken once a
    /// word (eight bytes, the first the lowest) rather than once a byte, each step folding the high
    /// half back in, then the last bytes as one word; the length seeds it.
    static func hash(_ name: String) -> UInt64? {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return hash(bytes: name.utf8.span)
        }
        let bytes = Array(name.utf8)
        return hash(bytes: bytes.span)
    }

    private static func hash(bytes: Span<UInt8>) -> UInt64? {
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var state = 0xcbf2_9ce4_8422_2325 ^ UInt64(truncatingIfNeeded: bytes.count)
        var index = 0
        while index &+ 8 <= bytes.count {
            var word: UInt64 = 0
            for offset in 0..<8 { word |= UInt64(bytes[index &+ offset]) &<< (8 &* offset) }
            guard word & 0x8080_8080_8080_8080 == 0 else { return nil }
            state = (state ^ word) &* prime
            state ^= state >> 32
            index &+= 8
        }
        var tail: UInt64 = 0
        var shift = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte < 0x80 else { return nil }
            tail |= UInt64(byte) &<< shift
            shift &+= 8
            index &+= 1
        }
        state = (state ^ tail) &* prime
        return state ^ (state >> 32)
    }
}
