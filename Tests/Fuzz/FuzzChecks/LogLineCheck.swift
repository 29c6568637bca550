import Foundation
import RemixExperiments
import RemixLogReader

/// The event-log reader against Foundation's JSON parser, on the same bytes (see `FuzzChecks.logLine`).
enum LogLineCheck {
    /// The string fields the analysis keeps, by key.
    static func strings(_ fields: LineFields) -> [(String, ByteSlice)] {
        [("ts", fields.timestamp), ("type", fields.type), ("user", fields.user), ("experiment", fields.experiment),
         ("variation", fields.variation), ("screen", fields.screen), ("feature", fields.feature)]
    }

    /// A disagreement on `line`, or nil.
    static func compare(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        var fields = LineFields()
        var scanner = LineScanner(line.span)
        var accepted = scanner.scan(into: &fields)
        if case .tooDeep? = scanner.failure { return nil }
        var storage: [UInt8] = []
        var kept = fields
        if accepted, fields.hasEscapes {
            guard let decoded = EscapeDecoder.relayout(fields, of: line.span, into: &storage) else { return nil }
            kept = decoded
        } else {
            storage = Array(line)
        }
        if readsAsAnotherEncoding(line) {
            return accepted ? mismatch(line, "scanner accepts a line that Foundation would read as UTF-16/32") : nil
        }
        let parsed = try? JSONSerialization.jsonObject(with: Data(line), options: [.fragmentsAllowed])
        let object = parsed as? [String: Any]
        if !accepted, object != nil, hasTrailingComma(line) { accepted = true }
        if accepted, object == nil, hasLoneSurrogate(line) || hasOutOfRangeNumber(line) { return nil }
        if accepted != (object != nil) {
            return mismatch(line, "scanner \(accepted ? "accepts" : "rejects (\(String(describing: scanner.failure)))"), "
                + "JSONSerialization \(object != nil ? "accepts" : "rejects")")
        }
        // A key that starts with U+FEFF is a key without it to Foundation: its fields are not comparable.
        guard let object, !hasTrailingComma(line), !hasQuotedByteOrderMark(line) else { return nil }
        for (key, slice) in strings(kept) {
            let expected = (object[key] as? String).map { Array($0.utf8) }
            let scanned = slice.isPresent ? Array(storage[slice.start..<(slice.start + slice.count)]) : nil
            if scanned != expected {
                return mismatch(line, "\(key): scanner \(String(describing: scanned)), JSONSerialization \(String(describing: expected))")
            }
        }
        let values = object.mapValues(foundationScalar)
        for (key, flag) in [("inExperiment", kept.inExperiment), ("hashUsed", kept.hashUsed)]
        where flag != (values[key] == .bool(true)) {
            return mismatch(line, "\(key): scanner \(flag), JSONSerialization \(String(describing: values[key]))")
        }
        if kept.variationID != -1, abs(kept.variationID) < 1 << 53,
           values["variationId"] != .number(Double(kept.variationID)) {
            return mismatch(line, "variationId: scanner \(kept.variationID), "
                + "JSONSerialization \(String(describing: values["variationId"]))")
        }
        if kept.phase != -1, abs(kept.phase) < 1 << 53, values["phase"] != .number(Double(kept.phase)) {
            return mismatch(line, "phase: scanner \(kept.phase), JSONSerialization \(String(describing: values["phase"]))")
        }
        return nil
    }

    /// A flag or a number as Foundation reads it, for comparing with what the scanner kept (anything
    /// else is null): both arrive as `NSNumber`, and `NSNumber(1) as? Bool` succeeds on Linux, so a
    /// boolean is told by its type code `c`.
    static func foundationScalar(_ any: Any) -> AttributeValue {
        if type(of: any) == Bool.self, let flag = any as? Bool { return .bool(flag) }
        guard !(any is String), let number = any as? NSNumber else { return .null }
        return number.objCType.pointee == CChar(UInt8(ascii: "c")) ? .bool(number.boolValue) : .number(number.doubleValue)
    }

    /// Whether Foundation would decode `line` as other than UTF-8: it guesses UTF-16 or UTF-32 from a
    /// NUL among the first four bytes (RFC 4627's rule) or from a byte-order mark, and skips a UTF-8
    /// one. A log line is UTF-8 (RFC 8259 §8.1), where a raw NUL is never JSON and a mark is no
    /// whitespace, so the scanner must reject such a line whatever Foundation makes of it.
    static func readsAsAnotherEncoding(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        if line.prefix(4).contains(0) { return true }
        let marks: [[UInt8]] = [[0xEF, 0xBB, 0xBF], [0xFE, 0xFF], [0xFF, 0xFE]]
        return marks.contains { line.starts(with: $0) }
    }

    /// Whether a number outside strings is too large for a double (`1e400`): JSON's grammar takes
    /// it, and so does the scanner, which keeps no such number; Foundation refuses the line.
    static func hasOutOfRangeNumber(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var inString = false, escaped = false, number: [UInt8] = []
        func tooLarge() -> Bool {
            defer { number.removeAll() }
            return !number.isEmpty && Double(String(decoding: number, as: UTF8.self))?.isInfinite == true
        }
        for byte in line {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            if (0x30...0x39).contains(byte) || [0x2D, 0x2B, 0x2E, 0x65, 0x45].contains(byte) {
                number.append(byte)
                continue
            }
            if tooLarge() { return true }
            inString = byte == 0x22
        }
        return tooLarge()
    }

    /// Whether a string starts with U+FEFF, raw or escaped. Foundation drops that character from the
    /// start of keys and values (`{"\u{FEFF}ts": …}` has the key `ts`); the scanner keeps the bytes
    /// as they are, as RFC 8259 has it.
    static func hasQuotedByteOrderMark(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw: [UInt8] = [0x22, 0xEF, 0xBB, 0xBF]
        let escaped = Array("\"\\ufeff".utf8)
        for index in line.indices where line[index] == 0x22 {
            let rest = line[index...]
            if rest.starts(with: raw) { return true }
            if rest.count >= escaped.count, zip(rest.prefix(escaped.count), escaped).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) { return true }
        }
        return false
    }

    /// Whether a `,` is followed (after whitespace) by `]` or `}` outside strings.
    static func hasTrailingComma(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var inString = false, escaped = false, comma = false
        for byte in line {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0D, 0x0A: continue
            case 0x5D where comma, 0x7D where comma: return true
            case 0x22: inString = true
            default: break
            }
            comma = byte == 0x2C
        }
        return false
    }

    /// Whether a string holds a `\u` escape of a surrogate that is not half of a pair.
    static func hasLoneSurrogate(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        func unit(at index: Int) -> UInt32? {
            guard index + 6 <= line.count, line[index] == 0x5C, line[index + 1] == UInt8(ascii: "u") else { return nil }
            var value: UInt32 = 0
            for offset in 2..<6 {
                guard let digit = EscapeDecoder.hexValue(line[index + offset]) else { return nil }
                value = value << 4 | digit
            }
            return value
        }
        var index = 0, inString = false
        while index < line.count {
            let byte = line[index]
            if !inString {
                inString = byte == 0x22
                index += 1
                continue
            }
            if byte == 0x22 { inString = false }
            guard byte == 0x5C else {
                index += 1
                continue
            }
            guard let first = unit(at: index) else {
                index += 2
                continue
            }
            if (0xDC00..<0xE000).contains(first) { return true }
            if (0xD800..<0xDC00).contains(first) {
                guard let second = unit(at: index + 6), (0xDC00..<0xE000).contains(second) else { return true }
                index += 6
            }
            index += 6
        }
        return false
    }

    static func mismatch(_ line: UnsafeBufferPointer<UInt8>, _ message: String) -> String {
        "\(message)\nline: \(Array(line))"
    }
}
