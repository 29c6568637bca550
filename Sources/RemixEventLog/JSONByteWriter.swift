import RemixFormats
import RemixKit

/// Writes JSON pieces into a buffer of ``JSONLinesEncoder``'s: plain stores and block copies, no
/// per-piece growth or uniqueness checks. Every write checks that it stays inside the buffer; one
/// that would not fit writes nothing more and sets ``overflowed``, and the encoder writes the
/// line again into a buffer large enough (so a line never needs its size worked out beforehand).
///
/// Invariant (why `@safe`): the writer holds its buffer's address, so it must not outlive the
/// buffer: it is `~Escapable`, its lifetime bound to the buffer's, and made over a buffer only by
/// ``writing(into:at:_:)``, which lends it `inout` to a closure for the buffer's scope (the compiler
/// refuses to let it, or the `LineMembers` that wraps it, out of that closure); ``init()`` makes
/// one over no bytes, which never stores. Every store is at
/// an index below `end` (checked by ``fits(_:)`` or by the `count &+ 9 <= end &- at` guards).
@safe struct JSONByteWriter: ~Escapable {
    private let base: UnsafeMutablePointer<UInt8>
    private let end: Int
    /// Where the next byte goes.
    private(set) var at: Int
    /// Whether a write did not fit: what was written since is incomplete.
    private(set) var overflowed = false

    /// `body` applied to a writer over `buffer` from index `at`: the only way to make one over a buffer.
    @inline(__always)
    static func writing<Result>(
        into buffer: UnsafeMutableBufferPointer<UInt8>, at: Int, _ body: (inout JSONByteWriter) -> Result
    ) -> Result {
        var writer = unsafe JSONByteWriter(buffer: buffer, at: at)
        return body(&writer)
    }

    /// A writer over `buffer` from index `at`; only ``writing(into:at:_:)`` calls it.
    @_lifetime(borrow buffer)
    private init(buffer: UnsafeMutableBufferPointer<UInt8>, at: Int) {
        precondition(at <= buffer.count)
        // A zero-length buffer may have no address; nothing can be written into it then.
        unsafe base = unsafe buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: 1)!
        end = buffer.count
        self.at = at
    }

    /// A writer over no bytes: every write overflows (for members that go nowhere).
    @_lifetime(immortal)
    init() {
        unsafe base = UnsafeMutablePointer(bitPattern: 1)!
        end = 0
        at = 0
    }

    /// Whether `count` more bytes fit; marks the writer overflowed when they do not.
    @inline(__always)
    private mutating func fits(_ count: Int) -> Bool {
        if count <= end &- at { return true }
        overflowed = true
        return false
    }

    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        guard fits(1) else { return }
        assert(at < end)
        unsafe base[at] = byte
        at &+= 1
    }

    @inline(__always)
    mutating func bytes(_ source: UnsafePointer<UInt8>, count: Int) {
        guard fits(count) else { return }
        assert(count >= 0 && at &+ count <= end)
        unsafe (base + at).update(from: source, count: count)
        at &+= count
    }

    @inline(__always)
    mutating func literal(_ literal: StaticString) {
        literal.withUTF8Buffer { utf8 in
            guard let source = utf8.baseAddress else { return }
            unsafe bytes(source, count: utf8.count)
        }
    }

    mutating func timestamp(milliseconds: Int64, recent: inout Timestamp.Recent) {
        guard fits(24) else { return }
        unsafe Timestamp.write(milliseconds: milliseconds, to: base + at, recent: &recent)
        at += 24
    }

    mutating func value(_ value: EventValue) {
        switch value {
        case .string(let string): self.string(string)
        case .int(let int): integer(int)
        case .double(let double): self.double(double)
        case .bool(let bool): literal(bool ? "true" : "false")
        case .null: literal("null")
        case .object(let fields):
            byte(UInt8(ascii: "{"))
            // In place: a `for field in` loop copies each name and value.
            unsafe fields.withUnsafeBufferPointer { fields in
                guard let first = fields.baseAddress else { return }
                for index in fields.indices {
                    if index > 0 { byte(UInt8(ascii: ",")) }
                    unsafe string(at: (first + index).pointer(to: \.name)!)
                    byte(UInt8(ascii: ":"))
                    unsafe self.value(at: (first + index).pointer(to: \.value)!)
                }
            }
            byte(UInt8(ascii: "}"))
        case .array(let values):
            byte(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { byte(UInt8(ascii: ",")) }
                self.value(value)
            }
            byte(UInt8(ascii: "]"))
        }
    }

    /// The value stored at `pointer`, as ``value(_:)`` writes it; a small ASCII string is read in
    /// place (copying a field's value out of its array counts a reference and runs the enum's
    /// outlined copy and destroy, for every field of every line).
    @inline(__always)
    mutating func value(at pointer: UnsafePointer<EventValue>) {
        if EventValueLayout.stringPayloadLeads, case .string = unsafe pointer.pointee,
           let short = unsafe ShortBytes(smallASCIIAt: UnsafeRawPointer(pointer)),
           quotedShort(short.low, short.high, count: short.count) {
            return
        }
        unsafe value(pointer.pointee)
    }

    /// `string` as a JSON string literal, escaped per RFC 8259. A string that needs no escaping
    /// (the usual case: checked eight bytes at a time) is copied whole.
    mutating func string(_ string: String) {
        // A small ASCII string's bytes come from its own words (see `ShortBytes`: lent through
        // the stack, they would be loaded back across two stores); a plain one is done here.
        if let short = ShortBytes(smallASCII: string), quotedShort(short.low, short.high, count: short.count) { return }
        contiguous(string)
    }

    /// The string stored at `pointer`, as ``string(_:)`` writes it; a small ASCII string is read
    /// in place (a field's name read from an array would otherwise be copied, counting a reference).
    @inline(__always)
    mutating func string(at pointer: UnsafePointer<String>) {
        if let short = unsafe ShortBytes(smallASCIIAt: pointer), quotedShort(short.low, short.high, count: short.count) { return }
        unsafe contiguous(pointer.pointee)
    }

    /// `string` through its contiguous bytes, quoted or not: the path of strings that are not
    /// small and ASCII, or that need escaping.
    private mutating func contiguous(_ string: String, quoting: Bool = true) {
        // Native strings (all of ours) lend their bytes in place; others are made contiguous.
        if unsafe string.utf8.withContiguousStorageIfAvailable({ unsafe quoting ? quoted($0) : unquoted($0) }) != nil { return }
        var string = string
        string.withUTF8 { unsafe quoting ? quoted($0) : unquoted($0) }
    }

    /// UTF-8 bytes as a JSON string literal, escaped per RFC 8259.
    mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        let count = utf8.count
        guard let source = utf8.baseAddress else { return literal("\"\"") }
        // The usual cases, when the line has room for whole words past the string: up to 16
        // bytes are read as two words without a call and stored whole; longer strings are copied,
        // then checked in place a word at a time. Done when no byte needs escaping. Positions
        // stay inside the buffer, so their arithmetic cannot overflow and is not checked.
        if count <= 16 {
            let (low, high) = unsafe ShortBytes.words(source, count: count)
            if quotedShort(low, high, count: count) { return }
        } else if count &+ 9 <= end &- at {
            let start = unsafe base + (at &+ 1)
            unsafe start.update(from: source, count: count)
            if unsafe Self.isPlain(copied: start, count: count) {
                unsafe base[at] = UInt8(ascii: "\"")
                unsafe start[count] = UInt8(ascii: "\"")
                at &+= count &+ 2
                return
            }
        } else if unsafe Self.isPlain(source, count: count) {
            guard fits(count + 2) else { return }
            unsafe base[at] = UInt8(ascii: "\"")
            unsafe (base + at + 1).update(from: source, count: count)
            unsafe base[at + 1 + count] = UInt8(ascii: "\"")
            at += count + 2
            return
        }
        byte(UInt8(ascii: "\""))
        unsafe escaped(source, count: count)
        byte(UInt8(ascii: "\""))
    }

    /// Writes `count` (at most 16) bytes held in two little-endian words, zero past the end, as
    /// a JSON string literal when none needs escaping and the line has room for whole words past
    /// them; otherwise writes nothing and says so. Positions stay inside the buffer, so their
    /// arithmetic cannot overflow and is not checked.
    @inline(__always)
    private mutating func quotedShort(_ low: UInt64, _ high: UInt64, count: Int) -> Bool {
        guard count &+ 9 <= end &- at, Self.isPlain(low, high, count: count) else { return false }
        assert(at &+ (count > 8 ? 17 : 9) <= end, "the words and quotes past \(at) of \(end)")
        let start = unsafe UnsafeMutableRawPointer(base + (at &+ 1))
        unsafe base[at] = UInt8(ascii: "\"")
        unsafe start.storeBytes(of: low.littleEndian, as: UInt64.self)
        if count > 8 { unsafe start.storeBytes(of: high.littleEndian, toByteOffset: 8, as: UInt64.self) }
        unsafe base[at &+ 1 &+ count] = UInt8(ascii: "\"")
        at &+= count &+ 2
        return true
    }

    /// Whether none of the `count` (at most 16) bytes held in two words needs escaping.
    @inline(__always)
    private static func isPlain(_ low: UInt64, _ high: UInt64, count: Int) -> Bool {
        let spaces: UInt64 = 0x2020_2020_2020_2020
        let keptLow: UInt64 = count >= 8 ? ~0 : (1 << (8 &* UInt64(count))) &- 1
        let keptHigh: UInt64 = count <= 8 ? 0 : count == 16 ? ~0 : (1 << (8 &* UInt64(count &- 8))) &- 1
        return !JSONLinesEncoder.mayNeedEscape(low | spaces & ~keptLow)
            && !JSONLinesEncoder.mayNeedEscape(high | spaces & ~keptHigh)
    }

    /// `string` escaped as inside a JSON string literal, without the quotes: a literal written in
    /// pieces (escaping goes byte by byte, so the pieces' escapes are the whole's).
    mutating func unquoted(_ string: String) {
        if let short = ShortBytes(smallASCII: string), case let (low, high, count) = (short.low, short.high, short.count),
           count &+ 8 <= end &- at, Self.isPlain(low, high, count: count) {
            let start = unsafe UnsafeMutableRawPointer(base + at)
            unsafe start.storeBytes(of: low.littleEndian, as: UInt64.self)
            if count > 8 { unsafe start.storeBytes(of: high.littleEndian, toByteOffset: 8, as: UInt64.self) }
            at &+= count
            return
        }
        contiguous(string, quoting: false)
    }

    private mutating func unquoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let source = utf8.baseAddress else { return }
        if unsafe Self.isPlain(source, count: utf8.count) {
            unsafe bytes(source, count: utf8.count)
        } else {
            unsafe escaped(source, count: utf8.count)
        }
    }

    /// Whether none of the `count` bytes just copied to `start` needs escaping, read a word at a
    /// time; the last word reads up to 7 bytes past them (the caller checked that the buffer
    /// holds them), taken as spaces.
    @inline(__always)
    private static func isPlain(copied start: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        let raw = UnsafeRawPointer(start)
        var index = 0
        while index + 8 <= count {
            if unsafe JSONLinesEncoder.mayNeedEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return false }
            index += 8
        }
        let rest = UInt64(truncatingIfNeeded: count - index)
        guard rest > 0 else { return true }
        let kept: UInt64 = (1 << (8 &* rest)) &- 1
        let word = unsafe UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        return !JSONLinesEncoder.mayNeedEscape(word & kept | 0x2020_2020_2020_2020 & ~kept)
    }

    /// Whether none of the `count` bytes at `source` needs escaping. A short string is checked as
    /// one word padded with spaces; a longer one word by word, the last word overlapping.
    private static func isPlain(_ source: UnsafePointer<UInt8>, count: Int) -> Bool {
        if count < 8 {
            var word: UInt64 = 0x2020_2020_2020_2020
            unsafe withUnsafeMutableBytes(of: &word) { unsafe $0.baseAddress!.copyMemory(from: source, byteCount: count) }
            return !JSONLinesEncoder.mayNeedEscape(word)
        }
        let raw = unsafe UnsafeRawPointer(source)
        var index = 0
        while index + 8 <= count {
            if unsafe JSONLinesEncoder.mayNeedEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return false }
            index += 8
        }
        return unsafe index == count || !JSONLinesEncoder.mayNeedEscape(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// The bytes with quotes, backslashes and control characters escaped; runs between them are
    /// copied whole.
    private mutating func escaped(_ source: UnsafePointer<UInt8>, count: Int) {
        var start = 0
        for index in 0..<count {
            let byte = unsafe source[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                unsafe bytes(source + start, count: index - start)
                escape(byte)
                start = index + 1
            }
        }
        unsafe bytes(source + start, count: count - start)
    }

    private mutating func escape(_ byte: UInt8) {
        self.byte(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: self.byte(0x22)
        case 0x5C: self.byte(0x5C)
        case 0x0A: self.byte(UInt8(ascii: "n"))
        case 0x0D: self.byte(UInt8(ascii: "r"))
        case 0x09: self.byte(UInt8(ascii: "t"))
        case 0x08: self.byte(UInt8(ascii: "b"))
        case 0x0C: self.byte(UInt8(ascii: "f"))
        default:
            literal("u00")
            self.byte(Self.hexDigit(byte >> 4))
            self.byte(Self.hexDigit(byte & 0xF))
        }
    }

    /// The lowercase hex digit of `value` (0…15).
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private static let powersOfTen: [UInt64] = [1, 10, 100, 1000, 10000, 100_000, 1_000_000]

    /// `magnitude` as `units / 10^decimals` with the fewest decimals (1 to 6), when it is in
    /// [0.001, 1e9): then `description` writes exactly those digits, in plain notation. The
    /// check is exact: `units` and `10^decimals` are exact doubles and their quotient is rounded
    /// correctly, so it equals `magnitude` exactly when that decimal reads back as `magnitude`,
    /// and no decimal with fewer digits does (the smallest such `decimals` is taken).
    @inline(__always)
    static func shortDecimal(_ magnitude: Double) -> (units: UInt64, decimals: Int)? {
        guard magnitude >= 0.001, magnitude < 1e9 else { return nil }
        var power = 10.0
        for decimals in 1...6 {
            let scaled = (magnitude * power).rounded()
            if scaled / power == magnitude { return (UInt64(scaled), decimals) }
            power *= 10
        }
        return nil
    }

    /// `value` in exactly `width` decimal digits, zero-padded on the left.
    private mutating func digits(_ value: UInt64, width: Int) {
        guard fits(width) else { return }
        var rest = value
        for index in stride(from: at + width - 1, through: at, by: -1) {
            unsafe base[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        at += width
    }

    /// An integer in decimal (at most 20 bytes).
    mutating func integer(_ value: Int) {
        if value == 0 { return byte(UInt8(ascii: "0")) }
        var magnitude = value.magnitude
        var digits = 0
        var rest = magnitude
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        if value < 0 { byte(UInt8(ascii: "-")) }
        guard fits(digits) else { return }
        for index in stride(from: at + digits - 1, through: at, by: -1) {
            unsafe base[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        }
        at += digits
    }

    /// A double as JSON: shortest round-trip form; non-finite values become null.
    mutating func double(_ value: Double) {
        guard value.isFinite else { return literal("null") }
        if value == value.rounded(), abs(value) < 1e15 { return integer(Int(value)) }
        if let (units, decimals) = Self.shortDecimal(abs(value)) {
            if value < 0 { byte(UInt8(ascii: "-")) }
            let scale = Self.powersOfTen[decimals]
            integer(Int(units / scale))
            byte(UInt8(ascii: "."))
            digits(units % scale, width: decimals)
            return
        }
        var text = value.description
        text.withUTF8 { utf8 in
            guard let source = utf8.baseAddress else { return }
            unsafe bytes(source, count: utf8.count)
        }
    }
}

/// Where an ``EventValue``'s string payload lies. A multi-payload enum whose payloads leave no
/// spare bits in common (`Int` and `Double` have none) keeps each payload unchanged at the value's
/// start and tells the cases apart by an extra tag byte after it — so a value one byte larger than
/// a `String` holds a `.string` case's two words first. Constant-folded; on a layout that differs,
/// ``JSONByteWriter/value(at:)`` copies the value instead.
enum EventValueLayout {
    @inline(__always)
    static var stringPayloadLeads: Bool { MemoryLayout<EventValue>.size == MemoryLayout<String>.size + 1 }
}
