/// Strings, numbers, literals and whitespace, each checked as it is skipped.
extension LineScanner {
    /// Checks a string's contents from `position` (just after the opening quote) to the closing
    /// quote, leaving `position` after it; `escaped` tells whether it holds a backslash escape.
    /// Eight bytes are tested at a time for a quote, a backslash, a control character or a
    /// non-ASCII byte; only those are looked at one by one.
    @inline(__always)
    mutating func stringBody(escaped: inout Bool) -> Bool {
        var index = position
        while index < count {
            if index + 8 <= count {
                let special = Self.specialBytes(UInt64(littleEndian: word(index)))
                if special == 0 {
                    index += 8
                    continue
                }
                index += special.trailingZeroBitCount >> 3
            }
            let byte = self[index]
            if byte == ASCII.quote {
                position = index + 1
                return true
            }
            if byte == ASCII.backslash {
                escaped = true
                guard let length = escapeLength(at: index) else { return fail(.badEscape(byte: index + 1)) }
                index += length
            } else if byte < 0x20 {
                return fail(.controlCharacter(byte: index + 1))
            } else if byte >= 0x80 {
                let length = utf8Length(index)
                guard length > 0 else { return fail(.invalidUTF8(byte: index + 1)) }
                index += length
            } else {
                index += 1
            }
        }
        return fail(.syntax(byte: count + 1))
    }

    /// The high bit of each byte of `word` that is `"`, `\`, below 0x20 or above 0x7F (and maybe
    /// of later bytes; the lowest one set is always right).
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22), backslashes = word ^ (ones &* 0x5C)
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        let control = (word &- ones &* 0x20) & ~word
        return (quote | backslash | control | word) & highs
    }

    /// The length of the escape at `index` (`\n`, `\u00e9`, …), nil when JSON has no such escape.
    private func escapeLength(at index: Int) -> Int? {
        guard index + 1 < count else { return nil }
        switch self[index + 1] {
        case ASCII.quote, ASCII.backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
             UInt8(ascii: "r"), UInt8(ascii: "t"):
            return 2
        case UInt8(ascii: "u"):
            guard index + 6 <= count else { return nil }
            for offset in 2..<6 where EscapeDecoder.hexValue(self[index + offset]) == nil { return nil }
            return 6
        default:
            return nil
        }
    }

    /// The length of the well-formed UTF-8 sequence at `index` (no overlong forms, surrogates or
    /// code points above U+10FFFF), 0 when there is none.
    func utf8Length(_ index: Int) -> Int {
        let lead = self[index]
        func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            index + offset < count && self[index + offset] >= low && self[index + offset] <= high
        }
        switch lead {
        case 0xC2...0xDF: return continuation(1) ? 2 : 0
        case 0xE0: return continuation(1, 0xA0) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return continuation(1) && continuation(2) ? 3 : 0
        case 0xED: return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0
        case 0xF0: return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4: return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default: return 0
        }
    }

    /// A JSON number (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`); `integer` gets its value
    /// when it is a whole number without fraction or exponent that fits, else -1.
    mutating func number(integer: inout Int) -> Bool {
        let negative = take(ASCII.minus)
        guard position < count else { return fail(.syntax(byte: position + 1)) }
        var value = 0
        var fits = true
        if self[position] == ASCII.zero {
            position += 1
        } else {
            guard digit() != nil else { return fail(.syntax(byte: position + 1)) }
            position -= 1
            while let digit = digit() {
                let (product, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = product.addingReportingOverflow(digit)
                fits = fits && !overflow1 && !overflow2
                value = sum
            }
        }
        var whole = true
        if take(ASCII.dot) {
            whole = false
            guard digits() else { return fail(.syntax(byte: position + 1)) }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            whole = false
            _ = take(ASCII.plus) || take(ASCII.minus)
            guard digits() else { return fail(.syntax(byte: position + 1)) }
        }
        integer = whole && fits ? (negative ? -value : value) : -1
        return true
    }

    /// The digit at `position`, taken; nil (nothing taken) when there is none.
    private mutating func digit() -> Int? {
        guard position < count else { return nil }
        let digit = self[position] &- ASCII.zero
        guard digit < 10 else { return nil }
        position += 1
        return Int(digit)
    }

    /// One or more digits.
    private mutating func digits() -> Bool {
        guard digit() != nil else { return false }
        while digit() != nil {}
        return true
    }

    /// Takes `word` (`true`, `false`, `null`) if it is at `position`, compared as one or two words.
    mutating func literal(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard length >= 4, position + length <= count else { return false }
        // `word` is ASCII of `length` (4 or 5) bytes: both loads of it are within it.
        let matched = word.withUTF8Buffer { expected in
            let wanted = unsafe UnsafeRawPointer(expected.baseAddress!)
            return unsafe word32(position) == wanted.loadUnaligned(as: UInt32.self)
                && word32(position + length - 4) == wanted.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
        }
        if matched { position += length }
        return matched
    }

    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        guard position < count, self[position] == byte else { return false }
        position += 1
        return true
    }

    /// Takes `byte` at `position`, or after whitespace; when it is not there, `position` is after
    /// the whitespace.
    @inline(__always)
    mutating func takeAfterSpace(_ byte: UInt8) -> Bool {
        if position < count, self[position] == byte {
            position += 1
            return true
        }
        skipSpace()
        return take(byte)
    }

    /// Skips whitespace if there is any (one comparison when there is none: every whitespace byte
    /// is at most a space).
    @inline(__always)
    mutating func skipSpaceIfAny() {
        if position < count, self[position] <= 0x20 { skipSpace() }
    }

    /// Skips JSON whitespace (a line holds no newline, but a CR before it is whitespace).
    @inline(__always)
    mutating func skipSpace() {
        while position < count {
            let byte = self[position]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A else { return }
            position += 1
        }
    }
}
