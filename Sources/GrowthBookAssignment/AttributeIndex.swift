import RemixFormats

/// A context's attributes in an open-addressing table keyed by `AttributeKey` hashes, built once
/// per context. Names match by exact code units, as JavaScript property names do.
///
/// The table is one block of words, six per slot: the name's first 16 bytes, the value's
/// first 16 bytes when it is an ASCII string, both lengths, and the value's version keys when it
/// is a short simple version (`SimpleVersion.packedKeys`, 0 otherwise). A lookup goes straight from the
/// name's hash to a slot and compares words, so it touches a cache line or two, and hashing or
/// testing an ASCII attribute needs no `AttributeValue` or `String`.
///
/// Invariant of its unchecked reads: `words.count == (mask + 1) * stride`, so any `slot & mask`
/// (and any entry `entry(for:)` returns) starts a whole slot inside `words`; each read asserts it.
struct AttributeIndex: Sendable {
    /// Words per slot: name low/high, text low/high, lengths, version keys.
    private static let stride = 6
    /// The lengths word of an empty slot.
    private static let empty = UInt64.max
    /// The text length recorded when the value is not an ASCII string.
    private static let noText: UInt64 = 0xFFFF_FFFE

    /// The slots: a power of two, at least one and a half times as many as the attributes, so
    /// probing always reaches an empty one and a context touches few cache lines.
    private let words: [UInt64]
    /// Names and values by slot, only filled slots initialized (every session builds an index).
    /// Written only while the index is built, then read only, so shared as the index is.
    nonisolated(unsafe) private let entries: SlotAttributes
    /// The bytes of ASCII texts longer than 16 bytes, and where each slot's start.
    private let longText: [UInt8]
    private let longTextStarts: [Int]
    private let mask: Int

    /// Indexes a dictionary's attributes.
    init(_ attributes: [String: AttributeValue]) {
        self.init(attributes) { ($0.key, $0.value) }
    }

    /// Indexes a list of attributes; of those whose names have the same code units, the last counts.
    init(_ attributes: [Attribute]) {
        self.init(attributes) { ($0.name, $0.value) }
    }

    private init<Pairs: Collection>(_ attributes: Pairs, _ pair: (Pairs.Element) -> (String, AttributeValue)) {
        let count = attributes.count
        var capacity = 4
        while capacity < count + count / 2 {
            capacity *= 2
        }
        var words = [UInt64](filledWith: 0, count: capacity * Self.stride)
        let entries = SlotAttributes.make(capacity: capacity)
        var longText: [UInt8] = []
        var longTextStarts: [Int] = []
        for slot in 0..<capacity {
            words[slot * Self.stride + 4] = Self.empty
        }
        for attribute in attributes {
            let (name, value) = pair(attribute)
            let hashed = HashedName(name)
            let nameCount = UInt64(min(hashed.bytes.count, 0xFFFF))
            var slot = Int(truncatingIfNeeded: hashed.hash) & (capacity - 1)
            var filled = false
            while words[slot * Self.stride + 4] != Self.empty {
                let base = slot * Self.stride
                if words[base] == hashed.bytes.low, words[base + 1] == hashed.bytes.high,
                   words[base + 4] & 0xFFFF_FFFF == nameCount,
                   hashed.bytes.count <= 16 || JavaScript.sameCodeUnits(entries.name(slot), name) {
                    filled = true
                    break
                }
                slot = (slot + 1) & (capacity - 1)
            }
            var text = ShortBytes([])
            var textCount = Self.noText
            if case .string(let string) = value, let small = ShortBytes(smallASCII: string) {
                // A small ASCII value (most are) from its own two words.
                text = small
                textCount = UInt64(small.count)
            } else if case .string(let string) = value, string.utf8.count < Int(Self.noText),
               string.utf8.allSatisfy({ $0 < 0x80 }) {
                text = ShortBytes(string.utf8)
                textCount = UInt64(text.count)
                if text.count > 16 {
                    if longTextStarts.isEmpty { longTextStarts = [Int](filledWith: 0, count: capacity) }
                    longTextStarts[slot] = longText.count
                    longText.append(contentsOf: string.utf8)
                }
            }
            let lengths = nameCount | textCount << 32
            // Stored one by one: a temporary array per attribute cost more than the rest of the index.
            let base = slot * Self.stride
            words[base] = hashed.bytes.low
            words[base + 1] = hashed.bytes.high
            words[base + 2] = text.low
            words[base + 3] = text.high
            words[base + 4] = lengths
            words[base + 5] = textCount <= 16 ? SimpleVersion.packedKeys(text) : 0
            entries.store(Attribute(name, value), at: slot, replacing: filled)
        }
        self.words = words
        unsafe self.entries = entries
        self.longText = longText
        self.longTextStarts = longTextStarts
        mask = capacity - 1
    }

    /// The indexed attributes by name.
    var attributes: [String: AttributeValue] {
        var attributes: [String: AttributeValue] = [:]
        for slot in 0...mask where words[slot * Self.stride + 4] != Self.empty {
            unsafe attributes[entries.name(slot)] = unsafe entries.value(slot)
        }
        return attributes
    }

    /// The entry (slot) of the attribute named by `key`, or -1 when absent.
    @inline(__always)
    func entry(for key: AttributeKey) -> Int {
        key.hashed.bytes.count > 16 ? longEntry(for: key) : entry(for: key.hashed)
    }

    /// `entry(for:)` for a name of at most 16 bytes, which its hashed name identifies.
    @inline(__always)
    func entry(for name: HashedName) -> Int {
        unsafe words.withUnsafeBufferPointer { words in
            let count = UInt64(truncatingIfNeeded: name.bytes.count)
            var slot = Int(truncatingIfNeeded: name.hash) & mask
            while true {
                let base = slot &* Self.stride
                assert(base &+ Self.stride <= words.count, "slot \(slot) outside the index")
                let lengths = unsafe words[base &+ 4]
                if unsafe words[base] == name.bytes.low, unsafe words[base &+ 1] == name.bytes.high,
                   lengths & 0xFFFF_FFFF == count {
                    return slot
                }
                if lengths == Self.empty { return -1 }
                slot = (slot &+ 1) & mask
            }
        }
    }

    @inline(never)
    private func longEntry(for key: AttributeKey) -> Int {
        var slot = Int(truncatingIfNeeded: key.hashed.hash) & mask
        while true {
            if words[slot * Self.stride + 4] == Self.empty { return -1 }
            if unsafe JavaScript.sameCodeUnits(entries.name(slot), key.name) { return slot }
            slot = (slot + 1) & mask
        }
    }

    /// The attribute named by `key`, if present.
    @inline(__always)
    func value(for key: AttributeKey) -> AttributeValue? {
        let entry = entry(for: key)
        return unsafe entry < 0 ? nil : entries.value(entry)
    }

    /// The value of entry `entry` (from `entry(for:)`, not -1).
    @inline(__always)
    func value(at entry: Int) -> AttributeValue {
        unsafe entries.value(entry)
    }

    /// Entry `entry`'s value as JavaScript concatenates it (empty for null), and its truthiness.
    @inline(__always)
    func hashText(at entry: Int) -> (text: String, isTruthy: Bool) {
        switch unsafe entries.value(entry) {
        case .string(let text): return (text, !text.isEmpty)
        case .null: return ("", false)
        case let value: return (value.javaScriptString, value.isTruthy)
        }
    }

    /// The length and first 16 bytes of entry `entry`'s value when it is an ASCII string.
    @inline(__always)
    func shortText(at entry: Int) -> ShortBytes? {
        unsafe words.withUnsafeBufferPointer { words in
            let base = entry &* Self.stride
            assert(entry >= 0 && base &+ Self.stride <= words.count, "entry \(entry) outside the index")
            let count = unsafe words[base &+ 4] >> 32
            guard count != Self.noText else { return nil }
            return unsafe ShortBytes(low: words[base &+ 2], high: words[base &+ 3], count: Int(count))
        }
    }

    /// Entry `entry`'s version keys (`SimpleVersion.packedKeys`): 0 unless its value is an ASCII
    /// string of at most 16 bytes that is a simple version of at most four parts.
    @inline(__always)
    func versionKeys(at entry: Int) -> UInt64 {
        unsafe words.withUnsafeBufferPointer { words in
            assert(entry >= 0 && (entry &+ 1) &* Self.stride <= words.count, "entry \(entry) outside the index")
            return unsafe words[entry &* Self.stride &+ 5]
        }
    }

    /// `body` applied to the bytes of entry `entry`'s ASCII text, whose first bytes are `text`
    /// (from `shortText(at:)`).
    @inline(__always)
    func withASCIIText<Result>(
        at entry: Int, _ text: ShortBytes, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        guard text.count > 16 else { return unsafe text.withBytes(body) }
        let start = longTextStarts[entry]
        return unsafe longText.withUnsafeBufferPointer { bytes in
            unsafe body(UnsafeBufferPointer(rebasing: bytes[start..<start + text.count]))
        }
    }
}

/// An index's attributes by slot, in one allocation with only the filled slots initialized: an
/// array would need a placeholder written into every empty slot and destroy every slot through
/// the element type's witness, for an index built every session.
private final class SlotAttributes: ManagedBuffer<SlotAttributes.Filled, Attribute> {
    /// Which slots hold an attribute: a bit per slot, the first 64 in `low`.
    struct Filled {
        let capacity: Int
        var low: UInt64 = 0
        var high: [UInt64] = []

        /// Whether `slot` holds an attribute; `high` is empty until a slot past 63 is filled.
        func contains(_ slot: Int) -> Bool {
            if slot < 64 { return low >> UInt64(slot) & 1 == 1 }
            let word = slot / 64 - 1
            return word < high.count && high[word] >> UInt64(slot % 64) & 1 == 1
        }

        mutating func insert(_ slot: Int) {
            if slot < 64 {
                low |= 1 << UInt64(slot)
            } else {
                if high.isEmpty { high = [UInt64](filledWith: 0, count: (capacity - 1) / 64) }
                high[slot / 64 - 1] |= 1 << UInt64(slot % 64)
            }
        }
    }

    static func make(capacity: Int) -> SlotAttributes {
        unsafe unsafeDowncast(create(minimumCapacity: capacity) { _ in Filled(capacity: capacity) }, to: SlotAttributes.self)
    }

    /// Puts `attribute` into `slot`, which holds one already when `replacing`.
    func store(_ attribute: Attribute, at slot: Int, replacing: Bool) {
        unsafe withUnsafeMutablePointers { filled, attributes in
            unsafe assert(0 <= slot && slot < filled.pointee.capacity, unsafe "slot \(slot) outside \(filled.pointee.capacity)")
            unsafe assert(filled.pointee.contains(slot) == replacing, "slot \(slot) filled: \(!replacing)")
            if replacing {
                unsafe attributes[slot] = attribute
            } else {
                unsafe (attributes + slot).initialize(to: attribute)
                unsafe filled.pointee.insert(slot)
            }
        }
    }

    /// The name of the attribute in `slot`, which holds one.
    func name(_ slot: Int) -> String {
        unsafe withUnsafeMutablePointers { filled, attributes in
            unsafe assert(0 <= slot && slot < filled.pointee.capacity && filled.pointee.contains(slot), "slot \(slot) is empty")
            return unsafe attributes[slot].name
        }
    }

    /// The value of the attribute in `slot`, which holds one.
    func value(_ slot: Int) -> AttributeValue {
        unsafe withUnsafeMutablePointers { filled, attributes in
            unsafe assert(0 <= slot && slot < filled.pointee.capacity && filled.pointee.contains(slot), "slot \(slot) is empty")
            return unsafe attributes[slot].value
        }
    }

    deinit {
        unsafe withUnsafeMutablePointers { filled, attributes in
            for slot in unsafe 0..<filled.pointee.capacity where unsafe filled.pointee.contains(slot) {
                unsafe (attributes + slot).deinitialize(count: 1)
            }
        }
    }
}
