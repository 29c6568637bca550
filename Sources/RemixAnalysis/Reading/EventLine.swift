import RemixSystem

/// One well-formed event line as an ordered reader sees it (``EventLineReader``): its time, type
/// and user decoded, and any other top-level field by name. It points into the reader's buffer, so
/// it is valid only while the visitor holds it.
package struct EventLine {
    /// Where one top-level member's key and value are in the line.
    struct Member {
        var key: ByteSlice
        var keyEscaped: Bool
        var value: ByteSlice
    }

    private let raw: UnsafeBufferPointer<UInt8>
    private let members: [Member]
    /// The event's time, in milliseconds since the epoch.
    package let time: Int64
    /// The event's type (`screen`, `advert_published`, …).
    package let type: String
    /// The user id; empty for run records.
    package let user: String

    init(raw: UnsafeBufferPointer<UInt8>, members: [Member], time: Int64, type: String, user: String) {
        self.raw = raw
        self.members = members
        self.time = time
        self.type = type
        self.user = user
    }

    /// The field's string value; nil when the line has no such string field.
    package func string(_ name: String) -> String? {
        guard let member = member(name), member.value.count >= 2, raw[member.value.start] == ASCII.quote else { return nil }
        return Self.decodedString(raw, ByteSlice(start: member.value.start + 1, count: member.value.count - 2))
    }

    /// The field's value as an integer; nil when it is absent or not an integer.
    package func integer(_ name: String) -> Int? {
        guard let member = member(name) else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: raw[member.value.start..<(member.value.start + member.value.count)]),
                          as: UTF8.self)
        return Int(text)
    }

    /// Whether the line has the field with the value `null`.
    package func isNull(_ name: String) -> Bool {
        guard let member = member(name), member.value.count == 4 else { return false }
        return raw[member.value.start] == UInt8(ascii: "n")
    }

    /// The field's text as written in the line (a number's digits, a string with its quotes).
    package func literal(_ name: String) -> String? {
        guard let member = member(name) else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: raw[member.value.start..<(member.value.start + member.value.count)]),
                      as: UTF8.self)
    }

    /// The string members of an object field, in line order (members of other kinds are left out);
    /// empty when the field is absent or not an object.
    package func stringMembers(_ name: String) -> [(key: String, value: String)] {
        guard let member = member(name), raw[member.value.start] == ASCII.openBrace else { return [] }
        let object = UnsafeBufferPointer(rebasing: raw[member.value.start..<(member.value.start + member.value.count)])
        var scanner = LineScanner(object)
        var nested: [Member] = []
        guard scanner.members(into: &nested) else { return [] }
        return nested.compactMap { member in
            guard member.value.count >= 2, object[member.value.start] == ASCII.quote,
                  let key = Self.decodedString(object, member.key),
                  let value = Self.decodedString(object, ByteSlice(start: member.value.start + 1, count: member.value.count - 2))
            else { return nil }
            return (key, value)
        }
    }

    /// The names of the line's top-level fields, in line order.
    package var fieldNames: [String] {
        members.compactMap { Self.decodedString(raw, $0.key) }
    }

    private func member(_ name: String) -> Member? {
        var wanted = name
        return wanted.withUTF8 { name in
            members.first { member in
                if member.keyEscaped { return Self.decodedString(raw, member.key) == String(decoding: name, as: UTF8.self) }
                return member.key.count == name.count
                    && memcmp(raw.baseAddress! + member.key.start, name.baseAddress!, name.count) == 0
            }
        }
    }

    /// A string's contents (between its quotes) with escapes decoded; nil for a lone surrogate.
    static func decodedString(_ bytes: UnsafeBufferPointer<UInt8>, _ slice: ByteSlice) -> String? {
        let contents = UnsafeBufferPointer(rebasing: bytes[slice.start..<(slice.start + slice.count)])
        guard contents.contains(ASCII.backslash) else { return String(decoding: contents, as: UTF8.self) }
        return EscapeDecoder.decode(contents).map { String(decoding: $0, as: UTF8.self) }
    }
}

extension LineScanner {
    /// Walks the members of the object at the start of the bytes, recording where each key (its
    /// contents, without quotes) and value (as written) is; false when it is not a well-formed object.
    mutating func members(into members: inout [EventLine.Member]) -> Bool {
        members.removeAll(keepingCapacity: true)
        skipSpace()
        guard take(ASCII.openBrace) else { return false }
        skipSpace()
        if take(ASCII.closeBrace) { return true }
        while true {
            guard take(ASCII.quote) else { return false }
            let keyStart = position
            var escaped = false
            guard stringBody(escaped: &escaped) else { return false }
            let key = ByteSlice(start: keyStart, count: position - 1 - keyStart)
            skipSpace()
            guard take(ASCII.colon) else { return false }
            skipSpace()
            let valueStart = position
            guard skipValue(depth: 2) else { return false }
            members.append(EventLine.Member(key: key, keyEscaped: escaped, value: ByteSlice(start: valueStart, count: position - valueStart)))
            skipSpace()
            if take(ASCII.comma) {
                skipSpace()
                continue
            }
            return take(ASCII.closeBrace)
        }
    }
}
