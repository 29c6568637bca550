import RemixLogReader

/// The events of the value metrics' types, kept by the first pass so that a second pass over the
/// log is not needed: each event's unit, time, type and numeric fields, 16 bytes plus 8 per field.
/// Past a budget the keeping stops and the analysis reads the log a second time instead (see
/// ``ValueTally``), so memory stays bounded.
struct KeptEvents {
    /// The event types kept.
    let types: [[UInt8]]
    /// The numeric fields kept per event (the scanner's `numericNames`).
    let fieldCount: Int
    /// Events kept at most, in this part.
    private(set) var limit: Int
    /// One kept event without its numbers.
    struct Record {
        var time: Int64
        var unit: Int32
        var typeIndex: UInt8
        var numberMask: UInt8
        var notNumberMask: UInt8
    }

    private(set) var records: [Record] = []
    /// `fieldCount` numbers per record.
    private(set) var numbers: [Double] = []
    /// More events than `limit`: what was kept is incomplete and must not be used.
    private(set) var overflowed = false

    /// Bytes one event takes.
    static func bytes(fields: Int) -> Int { MemoryLayout<Record>.stride + 8 * fields }

    init(types: [[UInt8]], fieldCount: Int, limit: Int) {
        self.types = types
        self.fieldCount = fieldCount
        self.limit = limit
    }

    var count: Int { records.count }

    /// The index of `type` among the kept types, unless the budget already ran out.
    func typeIndex(_ type: Span<UInt8>) -> Int? {
        overflowed ? nil : LogTally.index(of: type, in: types)
    }

    /// Keeps one event of the kept type `typeIndex`; past the budget, drops everything kept.
    mutating func keep(typeIndex index: Int, unit: Int, time: Int64, fields: LineFields) {
        guard records.count < limit else {
            self = KeptEvents(types: types, fieldCount: fieldCount, limit: limit, overflowed: true)
            return
        }
        records.append(Record(time: time, unit: Int32(unit), typeIndex: UInt8(index), numberMask: fields.numberMask,
                              notNumberMask: fields.notNumberMask))
        for field in 0..<fieldCount { numbers.append(fields.numbers[field]) }
    }

    private init(types: [[UInt8]], fieldCount: Int, limit: Int, overflowed: Bool) {
        self.init(types: types, fieldCount: fieldCount, limit: limit)
        self.overflowed = overflowed
    }

    /// Raises the budget to `limit` events (a part's events becoming the whole's).
    mutating func allow(_ limit: Int) {
        self.limit = max(self.limit, limit)
    }

    /// Adds another part's events, their units renumbered by `unitMap`.
    mutating func merge(_ other: KeptEvents, unitMap: [Int]) {
        guard !overflowed else { return }
        guard !other.overflowed, count + other.count <= limit else {
            self = KeptEvents(types: types, fieldCount: fieldCount, limit: limit, overflowed: true)
            return
        }
        records += other.records.map { record in
            var renumbered = record
            renumbered.unit = Int32(unitMap[Int(record.unit)])
            return renumbered
        }
        numbers += other.numbers
    }

    /// The fields of event `index` as the scanner gave them.
    func fields(_ index: Int) -> LineFields {
        var fields = LineFields()
        for field in 0..<fieldCount { fields.numbers[field] = numbers[index * fieldCount + field] }
        fields.numberMask = records[index].numberMask
        fields.notNumberMask = records[index].notNumberMask
        return fields
    }
}
