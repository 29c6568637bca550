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

    private func matches(_ slice: ByteSlice, _ name: [UInt8]) -> Bool {
        guard slice.count == name.count else { return false }
        for index in 0..<name.count where bytes[slice.start + index] != name[index] { return false }
        return true
    }

    private mutating func value(for key: ByteSlice, into fields: inout LineFields) -> Bool {
        guard position < bytes.count else { return false }
        let byte = bytes[position]
        if byte == UInt8(ascii: "\"") {
            guard let text = string(fields: &fields) else { return false }
            if matches(key, FieldName.type) { fields.type = text }
            else if matches(key, FieldName.user) { fields.user = text }
            else if matches(key, FieldName.ts) { fields.timestamp = TimestampParser.milliseconds(bytes, text) }
            else if matches(key, FieldName.experiment) { fields.experiment = text }
            else if matches(key, FieldName.variation) { fields.variation = text }
            else if matches(key, FieldName.screen) { fields.screen = text }
            return true
        }
        if matches(key, FieldName.variationId) {
            guard let number = integer() else { return skipValue() }
            fields.variationID = number
            return true
        }
        if matches(key, FieldName.inExperiment) || matches(key, FieldName.hashUsed) {
            let isTrue = literal("true")
            guard isTrue || literal("false") || literal("null") else { return false }
            if matches(key, FieldName.inExperiment) { fields.inExperiment = isTrue } else { fields.hashUsed = isTrue }
            return true
        }
        return skipValue()
    }

    /// A JSON string's contents (position after the closing quote); notes escapes.
    private mutating func string(fields: inout LineFields) -> ByteSlice? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = position
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
