/// An attribute name with its hash worked out once, when a condition or experiment is compiled,
/// so that looking it up in an `AttributeIndex` hashes nothing.
struct AttributeKey: Sendable {
    let name: String
    let hash: UInt64

    init(_ name: String) {
        self.name = name
        hash = Self.hash(name)
    }

    /// FNV-1a 64 over the UTF-8 bytes: attribute names are chosen by the app, not by users,
    /// so a fast deterministic hash is enough.
    static func hash(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// A context's attributes in an open-addressing table keyed by `AttributeKey` hashes. Built
/// once per context; each lookup is a hash comparison and a byte comparison of the name.
/// Names match by exact code units, as JavaScript property names do.
struct AttributeIndex: Sendable {
    /// Entry numbers by slot (-1 for empty); at least twice as many slots as attributes, so
    /// probing always reaches an empty slot.
    private let slots: [Int32]
    private let hashes: [UInt64]
    private let names: [String]
    private let values: [AttributeValue]
    private let mask: Int

    init(_ attributes: [String: AttributeValue]) {
        var capacity = 4
        while capacity < attributes.count * 2 {
            capacity *= 2
        }
        var slots = [Int32](repeating: -1, count: capacity)
        var hashes: [UInt64] = []
        var names: [String] = []
        var values: [AttributeValue] = []
        hashes.reserveCapacity(attributes.count)
        names.reserveCapacity(attributes.count)
        values.reserveCapacity(attributes.count)
        for (name, value) in attributes {
            let hash = AttributeKey.hash(name)
            var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while slots[slot] >= 0 {
                slot = (slot + 1) & (capacity - 1)
            }
            slots[slot] = Int32(names.count)
            hashes.append(hash)
            names.append(name)
            values.append(value)
        }
        self.slots = slots
        self.hashes = hashes
        self.names = names
        self.values = values
        mask = capacity - 1
    }

    /// The attribute named by `key`, if present.
    @inline(__always)
    func value(for key: AttributeKey) -> AttributeValue? {
        var slot = Int(truncatingIfNeeded: key.hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { return nil }
            if hashes[entry] == key.hash, JavaScript.sameCodeUnits(names[entry], key.name) {
                return values[entry]
            }
            slot = (slot + 1) & mask
        }
    }
}
