import RemixKit

/// Encodes events as JSON Lines into a byte buffer: one object per line, keys in a fixed order
/// (`ts`, `type`, `session`, `user`, then the event's fields), strings escaped per RFC 8259.
/// Hand-written because Foundation's encoder is far too slow for simulation volumes.
public struct JSONLinesEncoder {
    /// The encoded bytes so far.
    public private(set) var bytes: [UInt8] = []
    /// How many lines have been encoded.
    public private(set) var lineCount = 0

    /// Makes an empty encoder with room for `capacity` bytes.
    public init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its storage.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        lineCount = 0
    }

    /// Encodes one event as one line.
    public mutating func encode(_ event: LoggedEvent) {
        appendLiteral(#"{"ts":""#)
        Timestamp.appendRFC3339(milliseconds: event.timestamp, to: &bytes)
        appendLiteral(#"","type":"#)
        appendString(event.type)
        appendLiteral(#","session":"#)
        appendString(event.session)
        appendLiteral(#","user":"#)
        appendString(event.user)
        for field in event.fields {
            bytes.append(UInt8(ascii: ","))
            appendString(field.name)
            bytes.append(UInt8(ascii: ":"))
            appendValue(field.value)
        }
        appendLiteral("}\n")
        lineCount += 1
    }

    /// Appends `fields` as one JSON object, without a newline (the event store's `fields` column).
    public mutating func appendObject(_ fields: [EventField]) {
        appendValue(.object(fields))
    }

    private mutating func appendValue(_ value: EventValue) {
        switch value {
        case .string(let string): appendString(string)
        case .int(let int): appendInteger(int)
        case .double(let double): appendDouble(double)
        case .bool(let bool): appendLiteral(bool ? "true" : "false")
        case .null: appendLiteral("null")
        case .object(let fields):
            bytes.append(UInt8(ascii: "{"))
            for (index, field) in fields.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                appendString(field.name)
                bytes.append(UInt8(ascii: ":"))
                appendValue(field.value)
            }
            bytes.append(UInt8(ascii: "}"))
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                appendValue(value)
            }
            bytes.append(UInt8(ascii: "]"))
        }
    }

    private mutating func appendLiteral(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `string` as a JSON string literal.
    public mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            let count = utf8.count
            var start = 0, index = 0
            while index < count {
                // Eight bytes at a time while none of them needs escaping (the usual case).
                if index + 8 <= count, !Self.mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = base[index]
                if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                    bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - start))
                    appendEscape(byte)
                    start = index + 1
                }
                index += 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: count - start))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes of `word` may be a quote, a backslash or a control
    /// character (false positives are possible, false negatives are not).
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote & highs
        let hasBackslash = (backslash &- ones) & ~backslash & highs
        let hasControl = (word &- ones &* 0x20) & ~word & highs
        return (hasQuote | hasBackslash | hasControl) != 0
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: bytes.append(0x22)
        case 0x5C: bytes.append(0x5C)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: "u00".utf8)
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0xF)])
        }
    }

    /// Appends an integer in decimal.
    public mutating func appendInteger(_ value: Int) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        withUnsafeBytes(of: &digits) { buffer in
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    /// Appends a double as JSON: shortest round-trip form; non-finite values become null.
    public mutating func appendDouble(_ value: Double) {
        guard value.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        if value == value.rounded(), abs(value) < 1e15 {
            appendInteger(Int(value))
            return
        }
        bytes.append(contentsOf: value.description.utf8)
    }
}

/// RFC 3339 timestamps in UTC with milliseconds, formatted without Foundation.
public enum Timestamp {
    /// Appends `2026-11-22T10:15:30.123Z` for `milliseconds` since the epoch. Four-digit years
    /// end at 9999 and start at 0001: a time outside ``CivilTime`` 's range is written as the
    /// nearest end of it, never as a wrapped year (simulations check their span before they run).
    public static func appendRFC3339(milliseconds: Int64, to bytes: inout [UInt8]) {
        let clamped = min(max(milliseconds, CivilTime.earliestMilliseconds), CivilTime.latestMilliseconds)
        let (days, dayMillis) = clamped.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, millis) = dayMillis < 0 ? (days - 1, dayMillis + 86_400_000) : (days, dayMillis)
        let (year, month, dayOfMonth) = CivilTime.civil(fromDays: day)
        // Filled in place and appended once: this runs for every event.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            var at = 0
            func put(_ value: Int64, _ width: Int, then separator: UInt8) {
                var rest = value
                for index in stride(from: at + width - 1, through: at, by: -1) {
                    text[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
                text[at + width] = separator
                at += width + 1
            }
            put(year, 4, then: UInt8(ascii: "-"))
            put(month, 2, then: UInt8(ascii: "-"))
            put(dayOfMonth, 2, then: UInt8(ascii: "T"))
            put(millis / 3_600_000, 2, then: UInt8(ascii: ":"))
            put(millis / 60_000 % 60, 2, then: UInt8(ascii: ":"))
            put(millis / 1000 % 60, 2, then: UInt8(ascii: "."))
            put(millis % 1000, 3, then: UInt8(ascii: "Z"))
            bytes.append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    /// The text form of `milliseconds`.
    public static func rfc3339(milliseconds: Int64) -> String {
        var bytes: [UInt8] = []
        appendRFC3339(milliseconds: milliseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
