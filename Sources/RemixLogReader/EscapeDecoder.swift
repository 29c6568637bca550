/// Decodes the backslash escapes of JSON strings the scanner has already checked, so that
/// `"a\u0062"` and `"ab"` are the same user. Escaped surrogate pairs become one code point; a lone
/// escaped surrogate has no UTF-8 form and fails rather than turning into U+FFFD (which would make
/// distinct ids equal).
package enum EscapeDecoder {
    /// The UTF-8 bytes of `raw` (a string's contents between its quotes) with escapes decoded.
    package static func decode(_ raw: Span<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        return decode(raw, into: &out) ? out : nil
    }

    /// Appends the decoded bytes of `raw` to `out`; false for a lone surrogate.
    static func decode(_ raw: Span<UInt8>, into out: inout [UInt8]) -> Bool {
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == ASCII.backslash, index + 1 < raw.count else {
                out.append(byte)
                index += 1
                continue
            }
            let kind = raw[index + 1]
            index += 2
            switch kind {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(raw, index) else { return false }
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    guard index + 6 <= raw.count, raw[index] == ASCII.backslash, raw[index + 1] == UInt8(ascii: "u"),
                          let low = hex4(raw, index + 2), (0xDC00..<0xE000).contains(low) else { return false }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else if (0xDC00..<0xE000).contains(scalar) {
                    return false
                }
                appendUTF8(scalar, to: &out)
            default: out.append(kind)
            }
        }
        return true
    }

    /// Copies the needed fields of `line` into `storage`, decoded, and returns fields that point
    /// into `storage`; nil when one holds a lone escaped surrogate.
    package static func relayout(_ fields: LineFields, of line: Span<UInt8>,
                         into storage: inout [UInt8]) -> LineFields? {
        storage.removeAll(keepingCapacity: true)
        var decoded = fields
        func copy(_ slice: ByteSlice) -> ByteSlice? {
            guard slice.isPresent else { return slice }
            let start = storage.count
            guard decode(line.extracting(slice.range), into: &storage)
            else { return nil }
            return ByteSlice(start: start, count: storage.count - start)
        }
        guard let type = copy(fields.type), let user = copy(fields.user), let timestamp = copy(fields.timestamp),
              let experiment = copy(fields.experiment), let variation = copy(fields.variation),
              let screen = copy(fields.screen), let feature = copy(fields.feature) else { return nil }
        decoded.type = type
        decoded.user = user
        decoded.timestamp = timestamp
        decoded.experiment = experiment
        decoded.variation = variation
        decoded.screen = screen
        decoded.feature = feature
        decoded.hasEscapes = false
        return decoded
    }

    private static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case ..<0x80: out.append(UInt8(scalar))
        case ..<0x800: out += [UInt8(0xC0 | scalar >> 6), UInt8(0x80 | scalar & 0x3F)]
        case ..<0x10000:
            out += [UInt8(0xE0 | scalar >> 12), UInt8(0x80 | scalar >> 6 & 0x3F), UInt8(0x80 | scalar & 0x3F)]
        default:
            out += [UInt8(0xF0 | scalar >> 18), UInt8(0x80 | scalar >> 12 & 0x3F), UInt8(0x80 | scalar >> 6 & 0x3F),
                    UInt8(0x80 | scalar & 0x3F)]
        }
    }

    package static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func hex4(_ raw: Span<UInt8>, _ index: Int) -> UInt32? {
        guard index + 4 <= raw.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = hexValue(raw[index + offset]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }
}
