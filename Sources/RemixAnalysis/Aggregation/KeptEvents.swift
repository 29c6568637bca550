/// The events of the value metrics' types, kept by the first pass so that a second pass over the
/// log is not needed: each event's unit, time, type and numeric fields, 15 bytes plus 8 per field.
/// Past a budget the keeping stops and the analysis reads the log a second time instead (see
/// ``ValueTally``), so memory stays bounded.
struct KeptEvents {
    /// The event types kept.
    let types: [[UInt8]]
    /// The numeric fields kept per event (the scanner's `numericNames`).
    let fieldCount: Int
    /// Events kept at most, in this part.
    let limit: Int
    private(set) var units: [Int32] = []
    private(set) var times: [Int64] = []
    private(set) var typeIndices: [UInt8] = []
    private(set) var numbers: [Double] = []
    private(set) var numberMasks: [UInt8] = []
    private(set) var notNumberMasks: [UInt8] = []
    /// More events than `limit`: what was kept is incomplete and must not be used.
    private(set) var overflowed = false

    /// Bytes one event takes.
    static func bytes(fields: Int) -> Int { 4 + 8 + 1 + 2 + 8 * fields }

    init(types: [[UInt8]], fieldCount: Int, limit: Int) {
        self.types = types
        self.fieldCount = fieldCount
        self.limit = limit
    }

    var count: Int { units.count }

    /// The index of `type` among the kept types, unless the budget already ran out.
    func typeIndex(_ type: UnsafeBufferPointer<UInt8>) -> Int? {
        overflowed ? nil : types.firstIndex { LogTally.equal(type, $0) }
    }

    /// Keeps one event of the kept type `typeIndex`; past the budget, drops everything kept.
    mutating func keep(typeIndex index: Int, unit: Int, time: Int64, fields: LineFields) {
        guard units.count < limit else {
            self = KeptEvents(types: types, fieldCount: fieldCount, limit: limit, overflowed: true)
            return
        }
        units.append(Int32(unit))
        times.append(time)
        typeIndices.append(UInt8(index))
        for field in 0..<fieldCount { numbers.append(fields.numbers[field]) }
        numberMasks.append(fields.numberMask)
        notNumberMasks.append(fields.notNumberMask)
    }

    private init(types: [[UInt8]], fieldCount: Int, limit: Int, overflowed: Bool) {
        self.init(types: types, fieldCount: fieldCount, limit: limit)
        self.overflowed = overflowed
    }

    /// Adds another part's events, their units renumbered by `unitMap`.
    mutating func merge(_ other: KeptEvents, unitMap: [Int]) {
        guard !overflowed else { return }
        guard !other.overflowed, count + other.count <= limit else {
            self = KeptEvents(types: types, fieldCount: fieldCount, limit: limit, overflowed: true)
            return
        }
        units += other.units.map { Int32(unitMap[Int($0)]) }
        times += other.times
        typeIndices += other.typeIndices
        numbers += other.numbers
        numberMasks += other.numberMasks
        notNumberMasks += other.notNumberMasks
    }

    /// The fields of event `index` as the scanner gave them.
    func fields(_ index: Int) -> LineFields {
        var fields = LineFields()
        for field in 0..<fieldCount { fields.numbers[field] = numbers[index * fieldCount + field] }
        fields.numberMask = numberMasks[index]
        fields.notNumberMask = notNumberMasks[index]
        return fields
    }
}
