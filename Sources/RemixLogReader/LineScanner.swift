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

    private let bytes: Span<UInt8>
    let count: Int
    var position = 0
    /// Why the last scan failed.
    package private(set) var failure: BadLineReason?

    /// Top-level keys whose number values are kept (see ``LineFields/numbers``).
    let numericNames: Span<[UInt8]>
    private var numericIndex = 0
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

    /// The fields the analysis reads, told apart by length and a byte or two.
    enum Key {
        case ts, type, user, experiment, variation, variationId, inExperiment, hashUsed, screen, feature, phase, other
        /// One of the scanner's `numericNames`.
        case numeric

        init(_ name: Span<UInt8>) {
            guard !name.isEmpty else {
                self = .other
                return
            }
            let first = name[0]
            func spells(_ word: StaticString, _ key: Key) -> Key {
                word.withUTF8Buffer { expected in
                    for index in 1..<expected.count where unsafe name[index] != expected[index] { return .other }
                    return key
                }
            }
            switch name.count {
            case 2 where first == UInt8(ascii: "t"): self = name[1] == UInt8(ascii: "s") ? .ts : .other
            case 4 where first == UInt8(ascii: "t"): self = spells("type", .type)
            case 4 where first == UInt8(ascii: "u"): self = spells("user", .user)
            case 5 where first == UInt8(ascii: "p"): self = spells("phase", .phase)
            case 6 where first == UInt8(ascii: "s"): self = spells("screen", .screen)
            case 7 where first == UInt8(ascii: "f"): self = spells("feature", .feature)
            case 8 where first == UInt8(ascii: "h"): self = spells("hashUsed", .hashUsed)
            case 9 where first == UInt8(ascii: "v"): self = spells("variation", .variation)
            case 10 where first == UInt8(ascii: "e"): self = spells("experiment", .experiment)
            case 11 where first == UInt8(ascii: "v"): self = spells("variationId", .variationId)
            case 12 where first == UInt8(ascii: "i"): self = spells("inExperiment", .inExperiment)
            default: self = .other
            }
        }
    }

    /// A key's name (position after its opening quote); escaped keys are decoded to be matched.
    private mutating func keyName() -> Key? {
        if position + 16 <= count, let key = plainKey() { return key }
        let start = position
        var escaped = false
        guard stringBody(escaped: &escaped) else { return nil }
        let name = bytes.extracting(start..<(position - 1))
        guard escaped else { return numericKey(Key(name), name) }
        guard let decoded = EscapeDecoder.decode(name) else { return .other }
        return numericKey(Key(decoded.span), decoded.span)
    }

    /// The key at `position` when it is printable ASCII of at most 15 bytes, told from its one or
    /// two 8-byte words (position then after its closing quote); nil, with nothing taken, otherwise.
    @inline(__always)
    private mutating func plainKey() -> Key? {
        let first = UInt64(littleEndian: word(position))
        var special = Self.specialBytes(first)
        var length = 0, second: UInt64 = 0
        if special == 0 {
            second = UInt64(littleEndian: word(position + 8))
            special = Self.specialBytes(second)
            guard special != 0 else { return nil }
            let tail = special.trailingZeroBitCount >> 3
            guard (second >> UInt64(tail * 8)) & 0xFF == UInt64(ASCII.quote) else { return nil }
            length = 8 + tail
            second &= (1 << UInt64(tail * 8)) &- 1
        } else {
            length = special.trailingZeroBitCount >> 3
            guard (first >> UInt64(length * 8)) & 0xFF == UInt64(ASCII.quote) else { return nil }
        }
        assert(position + length <= count, "a key past the line")
        let start = position
        position += length + 1
        let head = length >= 8 ? first : first & ((1 << UInt64(length * 8)) &- 1)
        let key: Key
        // The names' bytes as little-endian words: "ts", "type", "user", … ("variatio" + "n").
        switch length {
        case 2: key = head == 0x7374 ? .ts : .other
        case 4: key = head == 0x6570_7974 ? .type : head == 0x7265_7375 ? .user : .other
        case 5: key = head == 0x65_7361_6870 ? .phase : .other
        case 6: key = head == 0x6E65_6572_6373 ? .screen : .other
        case 7: key = head == 0x65_7275_7461_6566 ? .feature : .other
        case 8: key = head == 0x6465_7355_6873_6168 ? .hashUsed : .other
        case 9: key = head == 0x6F69_7461_6972_6176 && second == 0x6E ? .variation : .other
        case 10: key = head == 0x656D_6972_6570_7865 && second == 0x746E ? .experiment : .other
        case 11: key = head == 0x6F69_7461_6972_6176 && second == 0x6449_6E ? .variationId : .other
        case 12: key = head == 0x6972_6570_7845_6E69 && second == 0x746E_656D ? .inExperiment : .other
        default: key = .other
        }
        // The name's bytes only when a number may be wanted (most keys are named ones, or none is).
        guard key == .other, !numericNames.isEmpty else { return key }
        return numericKey(key, unsafe bytes.extracting(unchecked: start..<(start + length)))
    }

    /// `.numeric` (remembering which) when `name` is one of `numericNames`.
    @inline(__always)
    private mutating func numericKey(_ key: Key, _ name: Span<UInt8>) -> Key {
        guard key == .other, !numericNames.isEmpty else { return key }
        for index in numericNames.indices where Self.equal(name, numericNames[index].span) {
            numericIndex = index
            return .numeric
        }
        return key
    }

    /// Whether `bytes` are exactly `name`.
    private static func equal(_ bytes: Span<UInt8>, _ name: Span<UInt8>) -> Bool {
        guard bytes.count == name.count else { return false }
        for index in 0..<name.count where bytes[index] != name[index] { return false }
        return true
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
