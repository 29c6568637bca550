import RemixFormats
import RemixSystem
import RemixKit

/// Interns byte strings (user ids, event types, …) as dense integer ids with an open-addressing
/// hash table over one contiguous byte arena: no String per lookup, one allocation per growth.
struct ByteStringTable {
    private var arena: [UInt8] = []
    private var offsets: [Int] = [0]
    private var hashes: [UInt64] = []
    private var slots: [Int32]
    private var mask: Int
    private var last = -1

    init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        mask = size - 1
    }

    /// How many distinct strings are interned.
    var count: Int { hashes.count }

    /// The id of `bytes`, interning it if new.
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        // Log lines come in runs per session: the last string interned is the likeliest.
        if last >= 0, equals(last, bytes) { return last }
        let id = lookUp(bytes)
        last = id
        return id
    }

    private mutating func lookUp(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        // Small tables (event types, screens) are faster to search than to hash into.
        if hashes.count <= 16 {
            for id in 0..<hashes.count where equals(id, bytes) { return id }
        }
        let hash = Self.hash(bytes)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let id = Int(slots[slot])
            if id < 0 { break }
            if hashes[id] == hash, equals(id, bytes) { return id }
            slot = (slot + 1) & mask
        }
        let id = hashes.count
        arena.append(contentsOf: bytes)
        offsets.append(arena.count)
        hashes.append(hash)
        slots[slot] = Int32(id)
        if hashes.count * 2 > slots.count { grow() }
        return id
    }

    /// The id of `bytes`, interning it if new and fewer than `limit` strings are interned; nil
    /// when it is new and the table is full.
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> Int? {
        if last >= 0, equals(last, bytes) { return last }
        if hashes.count >= limit {
            guard let id = find(bytes) else { return nil }
            last = id
            return id
        }
        return intern(bytes)
    }

    /// The id of `bytes` if interned.
    func find(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = Self.hash(bytes)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let id = Int(slots[slot])
            if id < 0 { return nil }
            if hashes[id] == hash, equals(id, bytes) { return id }
            slot = (slot + 1) & mask
        }
    }

    /// The string with id `id` (the reader only interns valid UTF-8).
    func string(_ id: Int) -> String {
        String(decoding: arena[offsets[id]..<offsets[id + 1]], as: UTF8.self)
    }

    /// Calls `body` with the exact bytes of id `id`.
    func withBytes<Result>(_ id: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        arena.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[offsets[id]..<offsets[id + 1]])) }
    }

    private func equals(_ id: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = offsets[id], end = offsets[id + 1]
        guard end - start == bytes.count else { return false }
        guard let other = bytes.baseAddress else { return true }
        return arena.withUnsafeBufferPointer { stored in
            guard bytes.count <= 16 else { return memcmp(stored.baseAddress! + start, other, bytes.count) == 0 }
            for index in 0..<bytes.count where stored[start + index] != other[index] { return false }
            return true
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

    /// FNV-1a 64 with a final mix, so low bits index well.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = FNV1a64.hash(bytes)
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        return hash ^ (hash >> 33)
    }
}
