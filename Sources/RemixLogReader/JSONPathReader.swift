/// Finds one scalar by a path of object keys (`attributes` → `platform`) in a line the
/// ``LineScanner`` has already accepted as a JSON object — for the few lines a dimension is read
/// from. Every step is bounds-checked, so a line that is not what it seems gives nil, never a trap.
package enum JSONPathReader {
    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    /// The value at `path`: a string's decoded bytes, or a number's or literal's text; nil when
    /// the path is absent or leads to an object or array.
    package static func scalar(in line: Span<UInt8>, path: [[UInt8]]) -> [UInt8]? {
        var index = 0
        guard !path.isEmpty else { return nil }
        return find(line, &index, path[...])
    }

    private static func find(_ b: Span<UInt8>, _ i: inout Int, _ path: ArraySlice<[UInt8]>) -> [UInt8]? {
        skipSpace(b, &i)
        guard i < b.count, b[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        while true {
            skipSpace(b, &i)
            guard i < b.count, b[i] == quote, let key = string(b, &i) else { return nil }
            skipSpace(b, &i)
            guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            skipSpace(b, &i)
            if let wanted = path.first, key == wanted {
                if path.count > 1 { return find(b, &i, path.dropFirst()) }
                guard i < b.count, b[i] != UInt8(ascii: "{"), b[i] != UInt8(ascii: "[") else { return nil }
                if b[i] == quote { return string(b, &i) }
                let start = i
                guard skipValue(b, &i) else { return nil }
                return b.extracting(start..<i).array
            }
            guard skipValue(b, &i) else { return nil }
            skipSpace(b, &i)
            guard i < b.count, b[i] == UInt8(ascii: ",") else { return nil }
            i += 1
        }
    }

    /// A string at `i` (its opening quote), decoded; `i` ends after the closing quote.
    private static func string(_ b: Span<UInt8>, _ i: inout Int) -> [UInt8]? {
        let start = i + 1
        guard skipString(b, &i) else { return nil }
        let raw = b.extracting(start..<(i - 1))
        return raw.contains(backslash) ? EscapeDecoder.decode(raw) : raw.array
    }

    private static func skipString(_ b: Span<UInt8>, _ i: inout Int) -> Bool {
        i += 1
        while i < b.count {
            switch b[i] {
            case backslash: i += 2
            case quote:
                i += 1
                return true
            default: i += 1
            }
        }
        return false
    }

    /// Skips one value of any kind; false at the end of the line.
    private static func skipValue(_ b: Span<UInt8>, _ i: inout Int) -> Bool {
        guard i < b.count else { return false }
        if b[i] == quote { return skipString(b, &i) }
        var depth = 0
        while i < b.count {
            switch b[i] {
            case quote:
                guard skipString(b, &i) else { return false }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return true }
                depth -= 1
                if depth == 0 {
                    i += 1
                    return true
                }
            case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                if depth == 0 { return true }
            default: break
            }
            i += 1
        }
        return depth == 0
    }

    private static func skipSpace(_ b: Span<UInt8>, _ i: inout Int) {
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
    }
}
