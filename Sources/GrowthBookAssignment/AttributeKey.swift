import RemixFormats

/// An attribute name with its hash worked out once, when a condition or experiment is compiled,
/// so that looking it up in an `AttributeIndex` hashes nothing.
struct AttributeKey: Sendable {
    let name: String
    let hashed: HashedName

    init(_ name: String) {
        self.name = name
        hashed = HashedName(name)
    }
}

/// A name's FNV-1a 64 hash over its UTF-8 bytes with its length and first 16 bytes: for names of
/// up to 16 bytes, equal hashed names mean equal names, so most lookups compare a few words
/// rather than two strings. Attribute names are chosen by the app, not by users, so a fast
/// deterministic hash is enough.
struct HashedName: Sendable {
    let hash: UInt64
    let bytes: ShortBytes

    init(_ name: String) {
        // A small ASCII name (most are) from its own two words, without lending its bytes.
        if let bytes = ShortBytes(smallASCII: name) {
            var hash = FNV1a<UInt64>()
            for index in 0..<bytes.count { hash.add(bytes[index]) }
            self.hash = hash.value
            self.bytes = bytes
            return
        }
        hash = FNV1a<UInt64>.hash(name.utf8)
        bytes = ShortBytes(name.utf8)
    }
}
