import RemixLogReader

/// One well-formed event line as the fit reads it: its time, type and user decoded, and where each
/// top-level member is. The line's bytes stay in the reader's buffer: each method that reads a
/// field takes them (`raw`, the line ``MemberWalker`` walked), valid only during the visit.
struct EventLine {
    /// Where one top-level member's key and value are in the line.
    struct Member {
        var key: ByteSlice
        var keyEscaped: Bool
        var value: ByteSlice
    }

    private let members: [Member]
    /// The event's time, in milliseconds since the epoch.
    let time: Int64
    /// The event's type (`screen`, `advert_published`, …).
    let type: String
    /// The user id; empty for run records.
    let user: String

    init(_ line: ScannedEventLine, members: [Member]) {
        self.members = members
        time = line.time
        type = line.type
        user = line.user
    }

    /// The field's string value; nil when the line has no such string field.
    func string(_ name: String, in raw: Span<UInt8>) -> String? {
        guard let member = member(name, in: raw), member.value.count >= 2, raw[member.value.start] == UInt8(ascii: "\"") else {
            return nil
        }
        return Self.decodedString(raw, ByteSlice(start: member.value.start + 1, count: member.value.count - 2))
    }

    /// The field's value as an integer; nil when it is absent or not an integer.
    func integer(_ name: String, in raw: Span<UInt8>) -> Int? {
        guard let member = member(name, in: raw) else { return nil }
        return Int(raw.extracting(member.value.range).string)
    }

    /// Whether the line has the field with the value `null`.
    func isNull(_ name: String, in raw: Span<UInt8>) -> Bool {
        guard let member = member(name, in: raw), member.value.count == 4 else { return false }
        return raw[member.value.start] == UInt8(ascii: "n")
    }

    /// The field's text as written in the line (a number's digits, a string with its quotes).
    func literal(_ name: String, in raw: Span<UInt8>) -> String? {
        guard let member = member(name, in: raw) else { return nil }
        return raw.extracting(member.value.range).string
    }

    /// The string members of an object field, in line order (members of other kinds are left out);
    /// empty when the field is absent or not an object.
    func stringMembers(_ name: String, in raw: Span<UInt8>) -> [(key: String, value: String)] {
        guard let member = member(name, in: raw), raw[member.value.start] == UInt8(ascii: "{") else { return [] }
        let object = raw.extracting(member.value.range)
        var nested: [Member] = []
        guard MemberWalker.members(of: object, into: &nested) else { return [] }
        var found: [(key: String, value: String)] = []
        for member in nested {
            guard member.value.count >= 2, object[member.value.start] == UInt8(ascii: "\""),
                  let key = Self.decodedString(object, member.key),
                  let value = Self.decodedString(object, ByteSlice(start: member.value.start + 1, count: member.value.count - 2))
            else { continue }
            found.append((key, value))
        }
        return found
    }

    /// The strings of a list field, in order (its other elements left out); empty when the field is
    /// absent or not a list.
    func strings(_ name: String, in raw: Span<UInt8>) -> [String] {
        guard let member = member(name, in: raw), raw[member.value.start] == UInt8(ascii: "[") else { return [] }
        let list = raw.extracting(member.value.range)
        var found: [String] = []
        for element in MemberWalker.elements(of: list) {
            guard element.count >= 2, list[element.start] == UInt8(ascii: "\""),
                  let text = Self.decodedString(list, ByteSlice(start: element.start + 1, count: element.count - 2)) else { continue }
            found.append(text)
        }
        return found
    }

    /// The names of the line's top-level fields, in line order.
    func fieldNames(in raw: Span<UInt8>) -> [String] {
        var names: [String] = []
        for member in members {
            if let name = Self.decodedString(raw, member.key) { names.append(name) }
        }
        return names
    }

    private func member(_ name: String, in raw: Span<UInt8>) -> Member? {
        let wanted = name.utf8.span
        for member in members {
            if member.keyEscaped {
                if Self.decodedString(raw, member.key) == name { return member }
            } else if raw.extracting(member.key.range).equals(wanted) {
                return member
            }
        }
        return nil
    }

    /// A string's contents (between its quotes) with escapes decoded; nil for a lone surrogate.
    static func decodedString(_ bytes: Span<UInt8>, _ slice: ByteSlice) -> String? {
        let contents = bytes.extracting(slice.range)
        guard contents.contains(UInt8(ascii: "\\")) else { return contents.string }
        return EscapeDecoder.decode(contents).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Finds the top-level members of a JSON object the log reader has already checked (so it need
/// not check the grammar again): where each key and value starts and ends.
enum MemberWalker {
    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    /// The members of the object `bytes` holds; false when it is not an object.
    static func members(of bytes: Span<UInt8>, into members: inout [EventLine.Member]) -> Bool {
        members.removeAll(keepingCapacity: true)
        var index = skipSpace(bytes, 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
        index = skipSpace(bytes, index + 1)
        while index < bytes.count, bytes[index] == quote {
            let keyStart = index + 1
            var escaped = false
            index = endOfString(bytes, keyStart, &escaped)
            let key = ByteSlice(start: keyStart, count: index - 1 - keyStart)
            index = skipSpace(bytes, index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index = skipSpace(bytes, index + 1)
            let valueStart = index
            index = endOfValue(bytes, index)
            members.append(EventLine.Member(key: key, keyEscaped: escaped, value: ByteSlice(start: valueStart, count: index - valueStart)))
            index = skipSpace(bytes, index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index = skipSpace(bytes, index + 1)
        }
        return true
    }

    /// Where each element of the list `bytes` holds is.
    static func elements(of bytes: Span<UInt8>) -> [ByteSlice] {
        var elements: [ByteSlice] = []
        var index = skipSpace(bytes, 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return [] }
        index = skipSpace(bytes, index + 1)
        while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
            let start = index
            index = endOfValue(bytes, index)
            elements.append(ByteSlice(start: start, count: index - start))
            index = skipSpace(bytes, index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index = skipSpace(bytes, index + 1)
        }
        return elements
    }

    private static func skipSpace(_ bytes: Span<UInt8>, _ start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
        return index
    }

    /// The index after the closing quote of the string whose contents start at `start`.
    private static func endOfString(_ bytes: Span<UInt8>, _ start: Int, _ escaped: inout Bool) -> Int {
        var index = start
        while index < bytes.count {
            if bytes[index] == backslash {
                escaped = true
                index += 2
            } else if bytes[index] == quote {
                return index + 1
            } else {
                index += 1
            }
        }
        return bytes.count
    }

    /// The index after the value that starts at `start` (a string, number, literal or container).
    private static func endOfValue(_ bytes: Span<UInt8>, _ start: Int) -> Int {
        guard start < bytes.count else { return start }
        var ignored = false
        switch bytes[start] {
        case quote:
            return endOfString(bytes, start + 1, &ignored)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case quote: index = endOfString(bytes, index + 1, &ignored); continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return bytes.count
        default:
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return index
                default: index += 1
                }
            }
            return index
        }
    }
}
