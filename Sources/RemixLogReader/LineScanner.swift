import RemixSystem

/// A validating byte-level scanner for one JSON Lines object: it checks the whole line against
/// JSON's grammar (RFC 8259: strings of valid UTF-8 without raw control characters, escapes,
/// numbers, literals, nesting) while it walks the top-level keys, keeps the values the analysis
/// needs (see ``LineFields``) and skips everything else without building strings. Any input that
/// is not a JSON object fails the scan with a ``BadLineReason`` rather than trapping.
///
/// A scanner reads one line: it is `~Escapable`, borrowing the line's bytes (and the names of the
/// numbers to keep) for no longer than they live.
///
/// Invariant of its unchecked reads: every read goes through the subscript, ``word(_:)`` or
/// ``word32(_:)`` at an index the code before it has checked against `count`; those reads assert
/// it in debug builds.
package struct LineScanner: ~Escapable {
    /// The deepest nesting of objects and arrays accepted (the line's own object is level 1).
    static let depthLimit = 64

    let bytes: Span<UInt8>
    let count: Int
    var position = 0
    /// Why the last scan failed.
    package private(set) var failure: BadLineReason?

    /// Top-level keys whose number values are kept (see ``LineFields/numbers``).
    let numericNames: Span<[UInt8]>
    var numericIndex = 0
    /// Whether `session` is one of `numericNames` (the writer's leading members then go through
    /// the general loop, which notes it).
    private let sessionIsNumeric: Bool

    /// A scanner of `line` that keeps the numbers of the top-level keys `numericNames`, of which
    /// `session` is one when `sessionIsNumeric` (``sessionIsNumeric(_:)``, worked out once per log).
    @_lifetime(copy line, copy numericNames)
    package init(_ line: Span<UInt8>, numericNames: Span<[UInt8]>, sessionIsNumeric: Bool) {
        bytes = line
        self.numericNames = numericNames
        self.sessionIsNumeric = sessionIsNumeric
        count = line.count
    }

    /// A scanner of `line` that keeps no numbers.
    @_lifetime(copy line)
    package init(_ line: Span<UInt8>) {
        self.init(line, numericNames: Span(), sessionIsNumeric: false)
    }

    /// Whether `session` is one of `numericNames`.
    package static func sessionIsNumeric(_ numericNames: [[UInt8]]) -> Bool {
        numericNames.contains(Array("session".utf8))
    }

    /// The byte at `index` (checked against `count` by the caller).
    @inline(__always)
    subscript(index: Int) -> UInt8 {
        assert(index >= 0 && index < count, "a read past the line")
        return unsafe bytes[unchecked: index]
    }

    /// The eight bytes from `index`, little-endian first (checked against `count` by the caller).
    @inline(__always)
    func word(_ index: Int) -> UInt64 {
        assert(index >= 0 && index + 8 <= count, "a read past the line")
        return unsafe bytes.bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: index, as: UInt64.self)
    }

    /// The four bytes from `index` (checked against `count` by the caller).
    @inline(__always)
    func word32(_ index: Int) -> UInt32 {
        assert(index >= 0 && index + 4 <= count, "a read past the line")
        return unsafe bytes.bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: index, as: UInt32.self)
    }

    /// Scans the whole line into `fields`; false (with ``failure`` set) when the line is not a
    /// well-formed JSON object.
    package mutating func scan(into fields: inout LineFields) -> Bool {
        fields = LineFields()
        guard var afterValue = writerMembers(into: &fields) else { return false }
        if !afterValue {
            skipSpace()
            guard take(ASCII.openBrace) else { return notAnObject() }
            if !take(ASCII.quote) {
                skipSpace()
                if take(ASCII.closeBrace) { return finish() }
                guard take(ASCII.quote) else { return fail(.syntax(byte: position + 1)) }
            }
        }
        while true {
            if !afterValue {
                guard let key = keyName() else { return fail(.syntax(byte: position + 1)) }
                guard takeAfterSpace(ASCII.colon) else { return fail(.syntax(byte: position + 1)) }
                skipSpaceIfAny()
                guard value(for: key, into: &fields) else { return false }
            }
            afterValue = false
            if takeAfterSpace(ASCII.comma) {
                guard takeAfterSpace(ASCII.quote) else { return fail(.syntax(byte: position + 1)) }
                continue
            }
            guard take(ASCII.closeBrace) else { return fail(.syntax(byte: position + 1)) }
            return finish()
        }
    }

    /// The members the event-log writer puts first, in its order and spelling:
    /// `{"ts":"<24 bytes>","type":"…","session":"…","user":"…"`, matched a word at a time instead of
    /// key by key. Each value is checked as the general loop checks it, so a line reads the same
    /// either way. Nil when a value fails (``failure`` set); false when the line does not start so
    /// (nothing taken); true when it took the `{` and at least one member, `position` then just
    /// after the last value taken, where the general loop goes on.
    @inline(__always)
    private mutating func writerMembers(into fields: inout LineFields) -> Bool? {
        guard count >= 48 else { return false }
        // `{"ts":"` and a timestamp of 24 plain bytes (no quote, backslash, control or non-ASCII byte).
        guard word(0) & 0x00FF_FFFF_FFFF_FFFF == 0x22_3A22_7374_227B,
              Self.specialBytes(word(7)) | Self.specialBytes(word(15)) | Self.specialBytes(word(23)) == 0,
              self[31] == ASCII.quote else { return false }
        fields.timestamp = ByteSlice(start: 7, count: 24)
        position = 32
        // `,"type":"` (position + 9 <= 48 <= count)
        guard word(32) == 0x3A22_6570_7974_222C,
              self[40] == ASCII.quote else { return true }
        position = 41
        guard let type = stringValue(&fields) else { return nil }
        fields.type = type
        // `,"session":"`, unless `session` is one of the numbers to read.
        guard !sessionIsNumeric, position + 12 <= count,
              word(position) == 0x6F69_7373_6573_222C, word32(position + 8) == 0x223A_226E else { return true }
        position += 12
        var escaped = false
        guard stringBody(escaped: &escaped) else { return nil }
        // `,"user":"`
        guard position + 9 <= count, word(position) == 0x3A22_7265_7375_222C,
              self[position + 8] == ASCII.quote else { return true }
        position += 9
        guard let user = stringValue(&fields) else { return nil }
        fields.user = user
        return true
    }

    /// The string whose contents start at `position` (`hasEscapes` set when it has a backslash
    /// escape), `position` then after its closing quote; nil when it is not a valid string.
    @inline(__always)
    private mutating func stringValue(_ fields: inout LineFields) -> ByteSlice? {
        let start = position
        var escaped = false
        guard stringBody(escaped: &escaped) else { return nil }
        if escaped { fields.hasEscapes = true }
        return ByteSlice(start: start, count: position - 1 - start)
    }

    /// Records the first reason for failing; always false.
    mutating func fail(_ reason: BadLineReason) -> Bool {
        if failure == nil { failure = reason }
        return false
    }

    private mutating func finish() -> Bool {
        skipSpace()
        return position == count || fail(.syntax(byte: position + 1))
    }

    /// A line that does not start with `{`: valid JSON of another kind, or not JSON.
    private mutating func notAnObject() -> Bool {
        guard skipValue(depth: 1) else { return fail(.syntax(byte: position + 1)) }
        skipSpace()
        return fail(position == count ? .notAnObject : .syntax(byte: position + 1))
    }

    /// Reads a number value already at `position` into `fields.numbers[numericIndex]`.
    private mutating func numericValue(into fields: inout LineFields) -> Bool {
        let start = position
        var ignored = 0
        guard number(integer: &ignored) else { return false }
        let length = position - start
        let value = unsafe withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { text -> Double in
            for index in 0..<length { unsafe text[index] = CChar(bitPattern: self[start + index]) }
            unsafe text[length] = 0
            guard let start = text.baseAddress else { return .nan }
            return unsafe strtod(start, nil)
        }
        let bit = UInt8(1) << UInt8(numericIndex)
        if value.isFinite {
            fields.numbers[numericIndex] = value
            fields.numberMask |= bit
            fields.notNumberMask &= ~bit
        } else {
            fields.notNumberMask |= bit
            fields.numberMask &= ~bit
        }
        return true
    }

    private mutating func value(for key: Key, into fields: inout LineFields) -> Bool {
        guard position < count else { return fail(.syntax(byte: position + 1)) }
        let byte = self[position]
        if byte == ASCII.quote {
            position += 1
            let start = position
            var escaped = false
            guard stringBody(escaped: &escaped) else { return false }
            if key == .numeric { return notANumber(&fields) }
            if key == .other { return true }
            if escaped { fields.hasEscapes = true }
            Self.assign(ByteSlice(start: start, count: position - 1 - start), to: key, in: &fields)
            return true
        }
        switch key {
        case .numeric:
            if byte == ASCII.minus || (byte &- ASCII.zero) < 10 { return numericValue(into: &fields) }
            return skipValue(depth: 2) && notANumber(&fields)
        case .variationId, .phase:
            var number = -1
            let isNumber = byte == ASCII.minus || (byte &- ASCII.zero) < 10
            guard isNumber ? self.number(integer: &number) : skipValue(depth: 2) else { return false }
            if key == .phase { fields.phase = number } else { fields.variationID = number }
            return true
        case .inExperiment, .hashUsed:
            let isTrue = byte == UInt8(ascii: "t") && literal("true")
            guard isTrue || skipValue(depth: 2) else { return false }
            if key == .inExperiment { fields.inExperiment = isTrue } else { fields.hashUsed = isTrue }
            return true
        default:
            // A needed string field with another kind of value counts as absent.
            Self.assign(.absent, to: key, in: &fields)
            return skipValue(depth: 2)
        }
    }

    /// Marks the numeric field being read as present but not a number; true.
    private func notANumber(_ fields: inout LineFields) -> Bool {
        let bit = UInt8(1) << UInt8(numericIndex)
        fields.notNumberMask |= bit
        fields.numberMask &= ~bit
        return true
    }

    private static func assign(_ slice: ByteSlice, to key: Key, in fields: inout LineFields) {
        switch key {
        case .type: fields.type = slice
        case .user: fields.user = slice
        case .ts: fields.timestamp = slice
        case .experiment: fields.experiment = slice
        case .variation: fields.variation = slice
        case .screen: fields.screen = slice
        case .feature: fields.feature = slice
        default: break
        }
    }

    /// Checks and skips any JSON value at nesting level `depth`.
    mutating func skipValue(depth: Int) -> Bool {
        guard position < count else { return fail(.syntax(byte: position + 1)) }
        switch self[position] {
        case ASCII.quote:
            position += 1
            var escaped = false
            return stringBody(escaped: &escaped)
        case ASCII.openBrace, ASCII.openBracket:
            return skipContainer(depth: depth)
        case UInt8(ascii: "t"): return literal("true") || fail(.syntax(byte: position + 1))
        case UInt8(ascii: "f"): return literal("false") || fail(.syntax(byte: position + 1))
        case UInt8(ascii: "n"): return literal("null") || fail(.syntax(byte: position + 1))
        default:
            var ignored = 0
            return number(integer: &ignored)
        }
    }

    /// An object or array (position at its opening bracket), members checked one by one.
    private mutating func skipContainer(depth: Int) -> Bool {
        guard depth <= Self.depthLimit else { return fail(.tooDeep(limit: Self.depthLimit)) }
        let isObject = self[position] == ASCII.openBrace
        let close = isObject ? ASCII.closeBrace : ASCII.closeBracket
        position += 1
        skipSpace()
        if take(close) { return true }
        while true {
            if isObject {
                var escaped = false
                guard take(ASCII.quote) else { return fail(.syntax(byte: position + 1)) }
                guard stringBody(escaped: &escaped) else { return false }
                skipSpace()
                guard take(ASCII.colon) else { return fail(.syntax(byte: position + 1)) }
                skipSpace()
            }
            guard skipValue(depth: depth + 1) else { return false }
            skipSpace()
            if take(ASCII.comma) {
                skipSpace()
                continue
            }
            return take(close) || fail(.syntax(byte: position + 1))
        }
    }
}
