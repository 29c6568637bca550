import RemixFormats
import RemixSystem

/// Interns byte strings (user ids, event types, …) as dense integer ids with an open-addressing
/// hash table over one contiguous byte arena: no String per lookup, one allocation per growth.
///
/// Memory safety: the pointers below live only inside one call. They view either the caller's
/// bytes (exactly their `count`) or `arena`, read only within `offsets[id]..<offsets[id + 1]`,
/// which ends at most at `arena.count` (asserted where read).
package struct ByteStringTable {
    private var arena: [UInt8] = []
    private var offsets: [Int] = [0]
    private var hashes: [UInt64] = []
    private var slots: [Int32]
    private var mask: Int
    private var last = -1

    package init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        mask = size - 1
    }

    /// How many distinct strings are interned.
    package var count: Int { hashes.count }

    /// The id of `bytes`, interning it if new.
    package mutating func intern(_ bytes: Span<UInt8>) -> Int {
        unsafe bytes.withUnsafeBufferPointer { unsafe intern($0) }
    }

    private mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        // Log lines come in runs per session: the last string interned is the likeliest.
        if last >= 0, unsafe equals(last, bytes) { return last }
        let id = unsafe lookUp(bytes)
        last = id
        return id
    }

    private mutating func lookUp(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        // Small tables (event types, screens) are faster to search than to hash into.
        if hashes.count <= 16 {
            for id in 0..<hashes.count where unsafe equals(id, bytes) { return id }
        }
        let hash = unsafe Self.hash(bytes)
        let (slot, found) = unsafe probe(bytes, hash: hash)
        if let found { return found }
        let id = unsafe add(bytes, hash: hash, at: slot)
        if hashes.count * 2 > slots.count { grow() }
        return id
    }

    /// Where `bytes`, whose hash is `hash`, is: its id and slot, or the empty slot it would take.
    @inline(__always)
    private func probe(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (slot: Int, id: Int?) {
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let id = Int(slots[slot])
            if id < 0 { return (slot, nil) }
            if hashes[id] == hash, unsafe equals(id, bytes) { return (slot, id) }
            slot = (slot + 1) & mask
        }
    }

    /// Interns `bytes`, which are new, in the empty `slot`; their id.
    @inline(__always)
    private mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, at slot: Int) -> Int {
        let id = hashes.count
        unsafe arena.append(contentsOf: bytes)
        offsets.append(arena.count)
        hashes.append(hash)
        slots[slot] = Int32(id)
        return id
    }

    /// The id of `bytes`, interning it if new and fewer than `limit` strings are interned; nil
    /// when it is new and the table is full.
    package mutating func intern(_ bytes: Span<UInt8>, limit: Int) -> Int? {
        unsafe bytes.withUnsafeBufferPointer { unsafe intern($0, limit: limit) }
    }

    private mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Int? {
        if last >= 0, unsafe equals(last, bytes) { return last }
        if hashes.count >= limit {
            guard let id = unsafe find(bytes) else { return nil }
            last = id
            return id
        }
        return unsafe intern(bytes)
    }

    /// Interns every string of `other` in its id order and returns the id each got here (indexed
    /// by `other`'s ids) — what interning them one by one gives, with their hashes reused and the
    /// storage grown once — and `fresh`: from that index of `other` on, every string was new here,
    /// so their ids run on consecutively from `ids[fresh]`.
    package mutating func absorb(_ other: ByteStringTable) -> (ids: [Int], fresh: Int) {
        var ids = [Int](repeating: 0, count: other.count)
        var fresh = 0
        arena.reserveCapacity(arena.count + other.arena.count)
        offsets.reserveCapacity(offsets.count + other.count)
        hashes.reserveCapacity(hashes.count + other.count)
        while (hashes.count + other.count) * 2 > slots.count { grow() }
        unsafe other.arena.withUnsafeBufferPointer { theirs in
            for id in 0..<other.count {
                let bytes = unsafe UnsafeBufferPointer(rebasing: theirs[other.offsets[id]..<other.offsets[id + 1]])
                let hash = other.hashes[id]
                let (slot, found) = unsafe probe(bytes, hash: hash)
                if let found {
                    ids[id] = found
                    fresh = id + 1
                } else {
                    ids[id] = unsafe add(bytes, hash: hash, at: slot)
                }
            }
        }
        return (ids, fresh)
    }

    /// The id of `bytes` if interned.
    package func find(_ bytes: Span<UInt8>) -> Int? {
        unsafe bytes.withUnsafeBufferPointer { unsafe find($0) }
    }

    private func find(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        unsafe probe(bytes, hash: Self.hash(bytes)).id
    }

    /// The string with id `id` (the reader only interns valid UTF-8).
    package func string(_ id: Int) -> String {
        String(decoding: arena[offsets[id]..<offsets[id + 1]], as: UTF8.self)
    }

    /// Calls `body` with the exact bytes of id `id`.
    package func withBytes<Result>(_ id: Int, _ body: (Span<UInt8>) -> Result) -> Result {
        body(arena.span.extracting(offsets[id]..<offsets[id + 1]))
    }

    private func equals(_ id: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = offsets[id], end = offsets[id + 1]
        guard end - start == bytes.count else { return false }
        guard let other = bytes.baseAddress else { return true }
        assert(start >= 0 && end <= arena.count, "an id's bytes past the arena")
        return unsafe arena.withUnsafeBufferPointer { stored in
            guard bytes.count <= 16 else { return unsafe memcmp(stored.baseAddress! + start, other, bytes.count) == 0 }
            return unsafe ShortBytes.words(stored.baseAddress! + start, count: bytes.count)
                == ShortBytes.words(other, count: bytes.count)
        }
    }

    private mutating func grow() {
        let size = slots.count * 2
        slots = Array(repeating: -1, count: size)
        mask = size - 1
        for (id, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
        }
    }

    /// A hash of `bytes` read eight bytes at a time (the last word overlapping the one before, so
    /// no byte past the end is read), with a final mix so low bits index well. Ids never depend on
    /// it: they are numbered in order of first interning.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        var hash = 0xCBF2_9CE4_8422_2325 ^ UInt64(truncatingIfNeeded: count)
        guard let base = bytes.baseAddress else { return mix(hash) }
        let raw = unsafe UnsafeRawPointer(base)
        if count <= 16 {
            let (low, high) = unsafe ShortBytes.words(raw, count: count)
            return mix(mix(hash ^ low) ^ high)
        }
        var offset = 0
        assert(count > 16)
        while offset + 8 < count {
            hash = unsafe mix(hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        return unsafe mix(hash ^ raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// A multiply and a shift that spread every input bit over the high and low bits.
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value &* 0x9E37_79B9_7F4A_7C15
        return product ^ (product >> 29)
    }
}
