/// Interns byte strings (user ids, event types, …) as dense integer ids, numbered in order of
/// first interning: a standard `Dictionary` from a string's bytes to its id, and the strings in id
/// order. It replaced a hand-written open-addressing table at +1.3 % of the instructions of
/// `remix analyze --jobs 1` of a 20 000-user log and +2.6 % of a 200 000-user one: not hot enough
/// for its unsafe code.
package struct ByteStringTable {
    private var ids: [[UInt8]: Int] = [:]
    private var strings: [[UInt8]] = []
    private var last = -1

    package init(capacity: Int = 1024) {
        ids.reserveCapacity(capacity)
        strings.reserveCapacity(capacity)
    }

    /// How many distinct strings are interned.
    package var count: Int { strings.count }

    /// The id of `bytes`, interning it if new.
    package mutating func intern(_ bytes: Span<UInt8>) -> Int {
        // Log lines come in runs per session: the last string interned is the likeliest.
        if last >= 0, bytes.equals(strings[last]) { return last }
        let id = lookUp(bytes)
        last = id
        return id
    }

    private mutating func lookUp(_ bytes: Span<UInt8>) -> Int {
        // Small tables (event types, screens) are faster to search than to hash into.
        if strings.count <= 16 {
            for id in strings.indices where bytes.equals(strings[id]) { return id }
        }
        return add(bytes.array)
    }

    /// The id of `key`, interning it if new.
    private mutating func add(_ key: [UInt8]) -> Int {
        let next = strings.count
        // Accessing the entry in place inserts `next` when `key` is new: one hash either way.
        let id = Self.value(&ids[key, default: next])
        if id == next { strings.append(key) }
        return id
    }

    private static func value(_ entry: inout Int) -> Int { entry }

    /// The id of `bytes`, interning it if new and fewer than `limit` strings are interned; nil
    /// when it is new and the table is full.
    package mutating func intern(_ bytes: Span<UInt8>, limit: Int) -> Int? {
        if last >= 0, bytes.equals(strings[last]) { return last }
        if strings.count >= limit {
            guard let id = find(bytes) else { return nil }
            last = id
            return id
        }
        return intern(bytes)
    }

    /// Interns every string of `other` in its id order and returns the id each got here (indexed
    /// by `other`'s ids) — what interning them one by one gives — and `fresh`: from that index of
    /// `other` on, every string was new here, so their ids run on consecutively from `ids[fresh]`.
    package mutating func absorb(_ other: ByteStringTable) -> (ids: [Int], fresh: Int) {
        var mapped = [Int](repeating: 0, count: other.count)
        var fresh = 0
        ids.reserveCapacity(count + other.count)
        strings.reserveCapacity(count + other.count)
        for (id, key) in other.strings.enumerated() {
            let before = count
            mapped[id] = add(key)
            if mapped[id] < before { fresh = id + 1 }
        }
        return (mapped, fresh)
    }

    /// The id of `bytes` if interned.
    package func find(_ bytes: Span<UInt8>) -> Int? {
        if last >= 0, bytes.equals(strings[last]) { return last }
        if strings.count <= 16 {
            for id in strings.indices where bytes.equals(strings[id]) { return id }
            return nil
        }
        return ids[bytes.array]
    }

    /// The string with id `id` (the reader only interns valid UTF-8).
    package func string(_ id: Int) -> String {
        String(decoding: strings[id], as: UTF8.self)
    }

    /// Calls `body` with the exact bytes of id `id`.
    package func withBytes<Result>(_ id: Int, _ body: (Span<UInt8>) -> Result) -> Result {
        let bytes = strings[id]
        return body(bytes.span)
    }
}
