import Glibc

/// A byte-level scanner for one JSON Lines object: it walks the top-level keys, keeps the values
/// the analysis needs (see ``LineFields``) and skips everything else — nested objects and arrays
/// included — without building strings. Any input that is not a JSON object fails the scan
/// rather than trapping.
struct LineScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Scans the whole line into `fields`; false when the line is not a well-formed JSON object.
    mutating func scan(into fields: inout LineFields) -> Bool {
        fields.reset()
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return false }
        skipSpace()
        if take(UInt8(ascii: "}")) { return finish() }
        while true {
            guard let key = string(fields: &fields) else { return false }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return false }
            skipSpace()
            guard value(for: key, into: &fields) else { return false }
            skipSpace()
            if take(UInt8(ascii: ",")) {
                skipSpace()
                continue
            }
            guard take(UInt8(ascii: "}")) else { return false }
            return finish()
        }
    }

    private mutating func finish() -> Bool {
        skipSpace()
        return position == bytes.count
    }

    /// The fields the analysis reads, told apart by length and a byte or two.
    private enum Key {
        case ts, type, user, experiment, variation, variationId, inExperiment, hashUsed, screen, feature, other
    }

    private func key(_ slice: ByteSlice) -> Key {
        let first = bytes[slice.start]
        switch slice.count {
        case 2 where first == UInt8(ascii: "t") && bytes[slice.start + 1] == UInt8(ascii: "s"): return .ts
        case 4 where first == UInt8(ascii: "t"): return equals(slice, "type") ? .type : .other
        case 4 where first == UInt8(ascii: "u"): return equals(slice, "user") ? .user : .other
        case 6 where first == UInt8(ascii: "s"): return equals(slice, "screen") ? .screen : .other
        case 7 where first == UInt8(ascii: "f"): return equals(slice, "feature") ? .feature : .other
        case 8 where first == UInt8(ascii: "h"): return equals(slice, "hashUsed") ? .hashUsed : .other
        case 9 where first == UInt8(ascii: "v"): return equals(slice, "variation") ? .variation : .other
        case 10 where first == UInt8(ascii: "e"): return equals(slice, "experiment") ? .experiment : .other
        case 11 where first == UInt8(ascii: "v"): return equals(slice, "variationId") ? .variationId : .other
        case 12 where first == UInt8(ascii: "i"): return equals(slice, "inExperiment") ? .inExperiment : .other
        default: return .other
        }
    }

    /// Whether `slice` (already known to have the name's length) spells `name`; an inline loop,
    /// as a `memcmp` call costs more than these few bytes.
    private func equals(_ slice: ByteSlice, _ name: StaticString) -> Bool {
        name.withUTF8Buffer { expected in
            for index in 1..<expected.count where bytes[slice.start + index] != expected[index] { return false }
            return true
        }
    }

    private mutating func value(for slice: ByteSlice, into fields: inout LineFields) -> Bool {
        guard position < bytes.count, !slice.isEmpty else { return skipValue() }
        let key = key(slice)
        if bytes[position] == UInt8(ascii: "\""), key == .other {
            return skipString()
        }
        if bytes[position] == UInt8(ascii: "\"") {
            guard let text = string(fields: &fields) else { return false }
            switch key {
            case .type: fields.type = text
            case .user: fields.user = text
            case .ts: fields.timestamp = text
            case .experiment: fields.experiment = text
            case .variation: fields.variation = text
            case .screen: fields.screen = text
            case .feature: fields.feature = text
            default: break
            }
            return true
        }
        switch key {
        case .variationId:
            guard let number = integer() else { return skipValue() }
            fields.variationID = number
            return true
        case .inExperiment, .hashUsed:
            let isTrue = literal("true")
            guard isTrue || literal("false") || literal("null") else { return false }
            if key == .inExperiment { fields.inExperiment = isTrue } else { fields.hashUsed = isTrue }
            return true
        default:
            return skipValue()
        }
    }

    /// A JSON string's contents (position after the closing quote); notes escapes. Keys and the
    /// values the analysis reads are short, so one tight loop beats a `memchr` call here.
    private mutating func string(fields: inout LineFields) -> ByteSlice? {
        guard take(UInt8(ascii: "\"")), let base = bytes.baseAddress else { return nil }
        let start = position
        var index = position
        let end = bytes.count
        while index < end {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return ByteSlice(start: start, count: index - start)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return carefulString(from: start, at: index, fields: &fields) }
            index += 1
        }
        return nil
    }

    /// Skips a string the analysis does not read: finds its closing quote (one not escaped by an
    /// odd run of backslashes) without looking at every byte.
    private mutating func skipString() -> Bool {
        guard take(UInt8(ascii: "\"")), let base = bytes.baseAddress else { return false }
        // Most skipped strings are short: look at the first bytes directly before calling memchr.
        let shortEnd = min(position + 24, bytes.count)
        while position < shortEnd {
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return true
            }
            position += byte == UInt8(ascii: "\\") ? 2 : 1
        }
        while position < bytes.count {
            guard let found = memchr(base + position, Int32(UInt8(ascii: "\"")), bytes.count - position) else { return false }
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var backslashes = 0
            while quote - backslashes - 1 >= position, base[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            position = quote + 1
            if backslashes % 2 == 0 { return true }
        }
        return false
    }

    /// The rest of a string that holds escapes or control characters, from `index`.
    private mutating func carefulString(from start: Int, at index: Int, fields: inout LineFields) -> ByteSlice? {
        position = index
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                defer { position += 1 }
                return ByteSlice(start: start, count: position - start)
            }
            if byte == UInt8(ascii: "\\") {
                fields.hasEscapes = true
                position += 2
                continue
            }
            if byte < 0x20 { return nil }
            position += 1
        }
        return nil
    }

    private mutating func integer() -> Int? {
        var value = 0
        let start = position
        let negative = take(UInt8(ascii: "-"))
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            let (product, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = product.addingReportingOverflow(Int(bytes[position] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            position += 1
        }
        guard position > start + (negative ? 1 : 0) else {
            position = start
            return nil
        }
        if position < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[position]) {
            position = start
            return nil
        }
        return negative ? -value : value
    }

    /// Skips any JSON value; false on malformed input.
    private mutating func skipValue() -> Bool {
        guard position < bytes.count else { return false }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            var ignored = LineFields()
            return string(fields: &ignored) != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    var ignored = LineFields()
                    guard string(fields: &ignored) != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        position += 1
                        return true
                    }
                default: break
                }
                position += 1
            }
            return false
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default:
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                let isNumberByte = (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                guard isNumberByte else { break }
                position += 1
            }
            return position > start
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let matched = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        if matched { position += count }
        return matched
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            let byte = bytes[position]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A else { return }
            position += 1
        }
    }
}
