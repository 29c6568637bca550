import RemixFormats
import RemixKit

/// Encodes events as JSON Lines into a byte buffer: one object per line, keys in a fixed order
/// (`ts`, `type`, `session`, `user`, then the event's fields), strings escaped per RFC 8259.
/// Hand-written because Foundation's encoder is far too slow for simulation volumes.
package struct JSONLinesEncoder {
    /// The encoded bytes so far.
    package private(set) var bytes: [UInt8] = []
    /// How many lines have been encoded.
    package private(set) var lineCount = 0
    /// The last timestamp written and its day: consecutive events mostly fall on one day, and
    /// half of them at the instant of the one before.
    private var recent = Timestamp.Recent()
    /// Where a line is written before it is appended: as large as the largest line so far, so
    /// that the buffer need not be padded and trimmed back for every line.
    private var line: [UInt8] = []

    /// Makes an empty encoder with room for `capacity` bytes.
    package init(capacity: Int = 4096) {
        // Reserving nothing would still allocate.
        if capacity > 0 { bytes.reserveCapacity(capacity) }
    }

    /// Empties the buffer, keeping its storage.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        lineCount = 0
    }

    /// Appends bytes that are already whole encoded lines.
    package mutating func append(encodedLines lines: ArraySlice<UInt8>) {
        bytes.append(contentsOf: lines)
    }

    /// Drops the first `count` bytes (those written out), keeping the rest and the storage.
    package mutating func removeFirst(_ count: Int) {
        if count == bytes.count {
            bytes.removeAll(keepingCapacity: true)
        } else {
            bytes.removeFirst(count)
        }
    }

    /// Encodes one event as one line.
    package mutating func encode(_ event: LoggedEvent) {
        line(timestamp: event.timestamp, type: .value(event.type), fields: event.fields,
             header: .members(session: .value(event.session), user: .value(event.user)))
    }

    /// Encodes the event at `event` as one line, as ``encode(_:)`` does, reading its strings in
    /// place: a copy of the event counts a reference for each string that is not small.
    package mutating func encode(at event: UnsafePointer<LoggedEvent>) {
        unsafe line(timestamp: event.pointee.timestamp, type: .stored(event.pointer(to: \.type)!), fields: event.pointee.fields,
             header: .members(session: .stored(event.pointer(to: \.session)!), user: .stored(event.pointer(to: \.user)!)))
    }

    /// The `session` and `user` members of a session's lines, encoded once for all of them.
    package struct SessionHeader: Sendable {
        fileprivate let bytes: [UInt8]

        /// Encodes the members for `session` and `user`.
        package init(session: String, user: String) {
            // Written on the stack within the members' bound, then copied into one array of the
            // exact size: one allocation per session.
            let bound = 20 + JSONLinesEncoder.bound(session) + JSONLinesEncoder.bound(user)
            let bytes = unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer in
                let count = unsafe JSONByteWriter.writing(into: buffer, at: 0) { out in
                    Header.write(session: .value(session), user: .value(user), to: &out)
                    return out.at
                }
                return unsafe [UInt8](UnsafeBufferPointer(rebasing: buffer[..<count]))
            }
            self.bytes = bytes
        }

        fileprivate func write(to out: inout JSONByteWriter) {
            unsafe bytes.withUnsafeBufferPointer { bytes in
                if let source = bytes.baseAddress { unsafe out.bytes(source, count: bytes.count) }
            }
        }
    }

    /// Encodes one event of a session as one line, as ``encode(_:)`` does.
    package mutating func encode(timestamp: Int64, type: String, header: SessionHeader, fields: [EventField]) {
        line(timestamp: timestamp, type: .value(type), fields: fields, header: .encoded(header))
    }

    /// Encodes one event of a session as ``encode(timestamp:type:header:fields:)`` writes one with
    /// the fields that `members` writes, in its order, without an array of them. `members` may run
    /// twice (when the line is written again into a larger buffer) and must write the same each time.
    package mutating func encode(timestamp: Int64, type: String, header: SessionHeader,
                                 members: (inout LineMembers) -> Void) {
        line(timestamp: timestamp, type: .value(type), fields: [], header: .encoded(header)) { out in
            var writer = LineMembers(out: out)
            members(&writer)
            out = writer.out
        }
    }

    /// Writes a line's members one by one, as the fields of those names and values are written.
    package struct LineMembers: ~Escapable {
        fileprivate var out: JSONByteWriter
        /// Whether the next member follows another (in an object, the first does not).
        private var follows = true

        @_lifetime(copy out)
        fileprivate init(out: JSONByteWriter) {
            self.out = out
        }

        /// Members that go nowhere: every write overflows (a writer over no bytes), for a caller
        /// that collects the fields instead of writing them.
        @_lifetime(immortal)
        package init() {
            out = JSONByteWriter()
        }

        /// Writes the member `name` with `value`. The name is copied as it is: it must be one
        /// that JSON needs no escape for (letters, digits, `_`), as every literal name here is.
        package mutating func callAsFunction(_ name: StaticString, _ value: EventValue) {
            separate()
            out.byte(UInt8(ascii: "\""))
            out.literal(name)
            out.literal("\":")
            out.value(value)
        }

        /// Writes the member named by the string `name` (escaped as needed) with the string `value`.
        package mutating func member(named name: String, string value: String) {
            separate()
            out.string(name)
            out.byte(UInt8(ascii: ":"))
            out.string(value)
        }

        /// The comma before a member that follows another.
        @inline(__always)
        private mutating func separate() {
            if follows { out.byte(UInt8(ascii: ",")) }
            follows = true
        }

        /// Writes the member `name` (as in ``callAsFunction(_:_:)``) with an object whose members
        /// `members` writes, as a field whose value is `.object` of those fields is written.
        package mutating func object(_ name: StaticString, _ members: (inout LineMembers) -> Void) {
            separate()
            out.byte(UInt8(ascii: "\""))
            out.literal(name)
            out.literal("\":{")
            follows = false
            members(&self)
            follows = true
            out.byte(UInt8(ascii: "}"))
        }
    }

    /// Encodes a session's screen event as ``encode(timestamp:type:header:fields:)`` writes one
    /// with the fields `transition`, `screen` and `stack` — the screen and the stack handed over
    /// in parts (`pieces` index 0 and 1), or, when `screenIsNull`, `"screen":null` and the stack
    /// (index 0) — without an array of fields (a session writes one screen event a step).
    /// `pieces(index, append)` calls `append` with the parts of member `index` as it would append
    /// them to a string; they are escaped as they come, straight into the line.
    package mutating func encodeScreen(timestamp: Int64, header: SessionHeader, transition: String, screenIsNull: Bool,
                                      pieces: (Int, (String) -> Void) -> Void) {
        // Each part straight into the line, escaped as it comes.
        func text(_ name: StaticString, _ index: Int, _ out: inout JSONByteWriter) {
            out.literal(name)
            pieces(index) { out.unquoted($0) }
            out.byte(UInt8(ascii: "\""))
        }
        line(timestamp: timestamp, type: .value("screen"), fields: [], header: .encoded(header)) { out in
            out.literal(#","transition":"#)
            out.string(transition)
            if screenIsNull {
                out.literal(#","screen":null"#)
                text(#","stack":""#, 0, &out)
            } else {
                text(#","screen":""#, 0, &out)
                text(#","stack":""#, 1, &out)
            }
        }
    }

    /// The session and user members of a line, or the two already encoded.
    private enum Header {
        case members(session: Text, user: Text)
        case encoded(SessionHeader)

        @inline(__always)
        func write(to out: inout JSONByteWriter) {
            switch self {
            case .members(let session, let user): Self.write(session: session, user: user, to: &out)
            case .encoded(let header): header.write(to: &out)
            }
        }

        @inline(__always)
        static func write(session: Text, user: Text, to out: inout JSONByteWriter) {
            out.literal(#","session":"#)
            session.write(to: &out)
            out.literal(#","user":"#)
            user.write(to: &out)
        }
    }

    /// A string member's value, or where it is stored.
    ///
    /// Invariant (why `@safe`): a `.stored` pointer is taken from the event that `encode(at:)` was
    /// given and used only before that call returns, while the caller keeps the event in place.
    @safe private enum Text {
        case value(String)
        case stored(UnsafePointer<String>)

        @inline(__always)
        func write(to out: inout JSONByteWriter) {
            switch self {
            case .value(let string): out.string(string)
            case .stored(let string): unsafe out.string(at: string)
            }
        }
    }

    /// Writes one line: the timestamp, type and header, `fields`, then what `members` writes
    /// (members after the fields, each with its leading comma). `members` runs again when the
    /// line is written again after an overflow, and must write the same bytes.
    private mutating func line(timestamp: Int64, type: Text, fields: [EventField], header: Header,
                               members: (inout JSONByteWriter) -> Void = { _ in }) {
        var recent = self.recent
        defer { self.recent = recent }
        write { out in
            out.literal(#"{"ts":""#)
            out.timestamp(milliseconds: timestamp, recent: &recent)
            out.literal(#"","type":"#)
            type.write(to: &out)
            header.write(to: &out)
            // Through a buffer, reading the fields in place: a `for field in` loop or the array's
            // subscript copies each name and value.
            unsafe fields.withUnsafeBufferPointer { fields in
                guard let first = fields.baseAddress else { return }
                for index in fields.indices {
                    out.byte(UInt8(ascii: ","))
                    unsafe out.string(at: (first + index).pointer(to: \.name)!)
                    out.byte(UInt8(ascii: ":"))
                    unsafe out.value(at: (first + index).pointer(to: \.value)!)
                }
            }
            members(&out)
            out.literal("}\n")
        }
        lineCount += 1
    }

    /// Appends `fields` as one JSON object, without a newline (the event store's `fields` column).
    package mutating func appendObject(_ fields: [EventField]) {
        let value = EventValue.object(fields)
        write { $0.value(value) }
    }

    /// Appends `string` as a JSON string literal.
    package mutating func appendString(_ string: String) {
        write { $0.string(string) }
    }

    /// Runs `body` on a writer over the line buffer, then appends what it wrote: one growth and
    /// one uniqueness check per line instead of one per piece. The buffer is kept between lines;
    /// when a line does not fit, the buffer doubles and `body` runs again (so it must write the
    /// same bytes each time): no line's size is worked out beforehand.
    private mutating func write(_ body: (inout JSONByteWriter) -> Void) {
        var line = self.line
        self.line = []
        if line.isEmpty { line = [UInt8](repeating: 0, count: 1024) }
        while true {
            let count = unsafe line.withUnsafeMutableBufferPointer { buffer in
                unsafe JSONByteWriter.writing(into: buffer, at: 0) { out in
                    body(&out)
                    return out.overflowed ? -1 : out.at
                }
            }
            if count >= 0 {
                unsafe line.withUnsafeBufferPointer { unsafe bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
                break
            }
            line = [UInt8](repeating: 0, count: 2 * line.count)
        }
        self.line = line
    }

    /// The most bytes `string` takes as a JSON string literal (every byte escaped as `\u00XX`).
    static func bound(_ string: String) -> Int {
        2 + 6 * string.utf8.count
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
}

/// RFC 3339 timestamps in UTC with milliseconds, formatted without Foundation.
package enum Timestamp {
    /// Appends `2026-11-22T10:15:30.123Z` for `milliseconds` since the epoch. Four-digit years
    /// end at 9999 and start at 0001: a time outside ``CivilTime`` 's range is written as the
    /// nearest end of it, never as a wrapped year (simulations check their span before they run).
    package static func appendRFC3339(milliseconds: Int64, to bytes: inout [UInt8]) {
        unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            unsafe write(milliseconds: milliseconds, to: text.baseAddress!)
            unsafe bytes.append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    /// What a writer keeps between timestamps: the 11 bytes `2026-11-22T` of the last day, and
    /// the last timestamp whole (half of a simulation's lines have the time of the line before).
    struct Recent {
        var day = Int64.min
        var bytes: (UInt64, UInt64) = (0, 0)
        var milliseconds = Int64.min
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
    }

    /// Writes the 24 bytes of ``appendRFC3339(milliseconds:to:)`` at `text`.
    static func write(milliseconds: Int64, to text: UnsafeMutablePointer<UInt8>) {
        var recent = Recent()
        unsafe write(milliseconds: milliseconds, to: text, recent: &recent)
    }

    /// Writes the 24 bytes at `text`, taking the date part from `recent` when the day is the same
    /// and keeping it there otherwise.
    static func write(milliseconds: Int64, to text: UnsafeMutablePointer<UInt8>, recent: inout Recent) {
        // `day` is never `.min` once a timestamp is kept (days are of clamped times).
        if milliseconds == recent.milliseconds, recent.day != .min {
            unsafe withUnsafeBytes(of: recent.text) { unsafe UnsafeMutableRawPointer(text).copyMemory(from: $0.baseAddress!, byteCount: 24) }
            return
        }
        defer {
            recent.milliseconds = milliseconds
            unsafe withUnsafeMutableBytes(of: &recent.text) { unsafe $0.baseAddress!.copyMemory(from: text, byteCount: 24) }
        }
        let clamped = min(max(milliseconds, CivilTime.earliestMilliseconds), CivilTime.latestMilliseconds)
        let (days, dayMillis) = clamped.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, millis) = dayMillis < 0 ? (days - 1, dayMillis + 86_400_000) : (days, dayMillis)
        var at = 0
        func put(_ value: Int64, _ width: Int, then separator: UInt8) {
            var rest = value
            for index in stride(from: at + width - 1, through: at, by: -1) {
                unsafe text[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            unsafe text[at + width] = separator
            at += width + 1
        }
        if day == recent.day {
            unsafe withUnsafeBytes(of: recent.bytes) { unsafe UnsafeMutableRawPointer(text).copyMemory(from: $0.baseAddress!, byteCount: 11) }
        } else {
            let (year, month, dayOfMonth) = CivilTime.civil(fromDays: day)
            put(year, 4, then: UInt8(ascii: "-"))
            put(month, 2, then: UInt8(ascii: "-"))
            put(dayOfMonth, 2, then: UInt8(ascii: "T"))
            recent.day = day
            unsafe withUnsafeMutableBytes(of: &recent.bytes) { unsafe $0.baseAddress!.copyMemory(from: text, byteCount: 11) }
        }
        // The time of day, every event's: each pair of digits from one small division.
        let time = UInt32(truncatingIfNeeded: millis)
        let seconds = time / 1000, milliseconds = time % 1000
        @inline(__always) func pair(_ value: UInt32, at offset: Int, then separator: UInt8) {
            unsafe text[offset] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
            unsafe text[offset &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            unsafe text[offset &+ 2] = separator
        }
        pair(seconds / 3600, at: 11, then: UInt8(ascii: ":"))
        pair(seconds / 60 % 60, at: 14, then: UInt8(ascii: ":"))
        pair(seconds % 60, at: 17, then: UInt8(ascii: "."))
        unsafe text[20] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: milliseconds / 100)
        pair(milliseconds % 100, at: 21, then: UInt8(ascii: "Z"))
    }

    /// The text form of `milliseconds`.
    package static func rfc3339(milliseconds: Int64) -> String {
        var bytes: [UInt8] = []
        appendRFC3339(milliseconds: milliseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
