import RemixLogReader

/// A pass over a log for `--dimension`: each unit's value of a session attribute (or of a
/// top-level field such as `persona`) from its earliest `session_started` event. Units are the
/// first pass's ids, so parts merge by keeping the earlier value; memory grows with units.
struct DimensionTally: LineSink {
    /// Where the value is in a `session_started` event.
    let path: [[UInt8]]
    /// Values by id; `valueOf[unit]` is an id, or -1 for a unit without one.
    private(set) var values = ByteStringTable(capacity: 64)
    private(set) var valueOf: [Int32] = []
    private var timeOf: [Int64] = []
    private let users: ByteStringTable
    private let until: Int64
    var lines = 0
    var tornFiles: [String] = []
    /// Parses timestamps, remembering the last minute.
    var timestamps = TimestampCache()
    var numericNames: [[UInt8]] { [] }
    var needles: [[UInt8]] { [Array(#""session_started""#.utf8)] }

    /// Top-level fields of `session_started`; any other name is read from its `attributes`.
    static let topLevelFields = ["persona", "visit", "app", "arrival"]

    /// The path of `name` in a `session_started` event.
    static func path(of name: String) -> [[UInt8]] {
        topLevelFields.contains(name) ? [Array(name.utf8)] : [Array("attributes".utf8), Array(name.utf8)]
    }

    init(dimension: String, first: LogTally) {
        path = Self.path(of: dimension)
        users = first.users
        until = first.until
    }

    mutating func noteBadLine(_: Int, _: BadLineReason) {}

    func add(_ fields: LineFields, in line: Span<UInt8>) -> BadLineReason? { nil }

    mutating func add(_ fields: LineFields, in line: Span<UInt8>, raw: Span<UInt8>) -> BadLineReason? {
        guard fields.type.isPresent, fields.user.isPresent, !fields.user.isEmpty,
              line.extracting(fields.type.range).equals("session_started"),
              let time = timestamps.milliseconds(line, fields.timestamp), time < until,
              let unit = users.find(line.extracting(fields.user.range)),
              let value = JSONPathReader.scalar(in: raw, path: path) else { return nil }
        let id = Int32(values.intern(value.span))
        keep(unit: unit, time: time, id: id)
        return nil
    }

    /// Keeps the value of the earliest session (on a tie, the smaller value), whatever the order.
    private mutating func keep(unit: Int, time: Int64, id: Int32) {
        LogTally.ensure(&valueOf, unit, -1)
        LogTally.ensure(&timeOf, unit, .max)
        let current = valueOf[unit]
        if time < timeOf[unit] || (time == timeOf[unit] && (current < 0 || value(id).lexicographicallyPrecedes(value(current)))) {
            timeOf[unit] = time
            valueOf[unit] = id
        }
    }

    private func value(_ id: Int32) -> [UInt8] { values.withBytes(Int(id)) { $0.array } }

    /// Adds a tally of another part of the same logs.
    mutating func merge(_ other: DimensionTally) {
        lines += other.lines
        for unit in other.valueOf.indices where other.valueOf[unit] >= 0 {
            let id = other.values.withBytes(Int(other.valueOf[unit])) { values.intern($0) }
            keep(unit: unit, time: other.timeOf[unit], id: Int32(id))
        }
    }

    /// A unit's value, or nil.
    func value(unit: Int) -> String? {
        unit < valueOf.count && valueOf[unit] >= 0 ? values.string(Int(valueOf[unit])) : nil
    }
}
