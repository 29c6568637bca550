import RemixLogReader

/// The second pass over a log, for metrics that are not a plain proportion: per experiment and
/// per column (events of one type, one numeric field, one window), each exposed unit's sum of the
/// field and count of events at or after its first exposure (and within the window) — or, for a
/// CUPED covariate, in the window before it. Units are the first pass's ids and exposures its
/// merged ones, so parts of a log merge by adding. Memory grows with exposures × columns (each
/// experiment's sums are kept by its units' exposure slots), never with events — except for event-level quantiles, whose columns keep each event's unit and value
/// (12 bytes an event of that type).
struct ValueTally: LineSink {
    /// What is summed per unit.
    struct Column: Hashable, Sendable {
        var event: String
        /// The numeric field summed; nil only counts events.
        var value: String?
        var windowHours: Double?
        /// The `windowHours` before the first exposure instead of after it (a CUPED covariate).
        var pre = false
        /// Keep every event's unit and value (an event-level quantile).
        var keepEvents = false
    }

    /// One experiment's sums of one column, indexed by the unit's exposure slot (``ExposureMap``).
    struct Sums: Sendable {
        var sum: [Double] = []
        var count: [Int32] = []
        /// Events counted whose `value` field was missing or not a number, by the first pass's
        /// variation index.
        var missing: [Int] = []
        var notNumber: [Int] = []
        /// With ``Column/keepEvents``: each counted event's unit and numeric value.
        var eventUnits: [Int32] = []
        var eventValues: [Double] = []
    }

    let columns: [Column]
    let numericNames: [[UInt8]]
    /// Each event type as a JSON string (`"session_ended"`): other lines need not be read.
    let needles: [[UInt8]]
    private let events: [[UInt8]]
    /// Event index → the columns it feeds.
    private let columnsOfEvent: [[Int]]
    /// Column → index into `numericNames`, or -1.
    private let fieldOf: [Int]
    private let windowMs: [Int64]
    private let isPre: [Bool]
    private let until: Int64
    private let keepsEvents: [Bool]
    private let users: ByteStringTable
    /// Each experiment's exposures, from the first pass.
    private let exposures: [ExposureMap]
    /// Experiment → column → sums.
    private(set) var sums: [[Sums]]
    var lines = 0
    /// Parses timestamps, remembering the last minute.
    var timestamps = TimestampCache()
    var tornFiles: [String] = []

    /// An empty tally of `columns` over the units and exposures of `first`; nil when the
    /// columns read more than ``LineFields/numericLimit`` distinct numeric fields.
    init?(columns: [Column], first: LogTally) {
        self.columns = columns
        var names: [String] = []
        for case let name? in columns.map(\.value) where !names.contains(name) { names.append(name) }
        guard names.count <= LineFields.numericLimit else { return nil }
        numericNames = names.map { Array($0.utf8) }
        fieldOf = columns.map { column in column.value.flatMap { names.firstIndex(of: $0) } ?? -1 }
        var eventNames: [String] = []
        for column in columns where !eventNames.contains(column.event) { eventNames.append(column.event) }
        events = eventNames.map { Array($0.utf8) }
        needles = events.map { [UInt8(ascii: "\"")] + $0 + [UInt8(ascii: "\"")] }
        columnsOfEvent = eventNames.map { event in columns.indices.filter { columns[$0].event == event } }
        windowMs = columns.map { column in
            column.windowHours.map { hours in Int64(min((hours * 3_600_000).rounded(), 9e18)) } ?? .max
        }
        isPre = columns.map(\.pre)
        until = first.until
        keepsEvents = columns.map(\.keepEvents)
        users = first.users
        exposures = first.experiments.map(\.exposures)
        sums = Array(repeating: Array(repeating: Sums(), count: columns.count), count: first.experiments.count)
    }

    mutating func noteBadLine(_: Int, _: BadLineReason) {}

    mutating func add(_ fields: LineFields, in line: Span<UInt8>) -> BadLineReason? {
        guard fields.type.isPresent, fields.user.isPresent, !fields.user.isEmpty, fields.timestamp.isPresent else { return nil }
        let type = line.extracting(fields.type.range)
        guard let event = events.firstIndex(where: { LogTally.equal(type, $0) }),
              let time = timestamps.milliseconds(line, fields.timestamp), time < until,
              let unit = users.find(line.extracting(fields.user.range)) else { return nil }
        add(event: event, time: time, unit: unit, fields: fields)
        return nil
    }

    /// Adds the events the first pass kept instead of reading the log again; their types and
    /// fields must be this tally's `events` and `numericNames`, in order.
    mutating func add(_ kept: KeptEvents) {
        for index in 0..<kept.count where kept.records[index].time < until {
            let record = kept.records[index]
            add(event: Int(record.typeIndex), time: record.time, unit: Int(record.unit), fields: kept.fields(index))
        }
    }

    /// The event types and numeric fields `columns` read, as a pass over the log must keep them.
    static func reads(_ columns: [Column]) -> (events: [[UInt8]], numericNames: [[UInt8]]) {
        var names: [String] = [], eventNames: [String] = []
        for case let name? in columns.map(\.value) where !names.contains(name) { names.append(name) }
        for column in columns where !eventNames.contains(column.event) { eventNames.append(column.event) }
        return (eventNames.map { Array($0.utf8) }, names.map { Array($0.utf8) })
    }

    private mutating func add(event: Int, time: Int64, unit: Int, fields: LineFields) {
        for experiment in exposures.indices {
            guard let (place, exposure) = exposures[experiment].exposure(of: unit), exposure.variation >= 0 else { continue }
            let offset = time - exposure.first
            for column in columnsOfEvent[event] {
                let inWindow = isPre[column] ? offset < 0 && -offset <= windowMs[column]
                    : offset >= 0 && offset < windowMs[column]
                if inWindow {
                    add(unit: unit, place: place, variation: Int(exposure.variation), column: column, experiment: experiment,
                        fields: fields)
                }
            }
        }
    }

    private mutating func add(unit: Int, place: Int, variation: Int, column: Int, experiment: Int, fields: LineFields) {
        LogTally.ensure(&sums[experiment][column].count, place, 0)
        sums[experiment][column].count[place] += 1
        let field = fieldOf[column]
        guard field >= 0 else { return }
        let bit = UInt8(1) << UInt8(field)
        if fields.numberMask & bit != 0 {
            LogTally.ensure(&sums[experiment][column].sum, place, 0)
            sums[experiment][column].sum[place] += fields.numbers[field]
            if keepsEvents[column] {
                sums[experiment][column].eventUnits.append(Int32(unit))
                sums[experiment][column].eventValues.append(fields.numbers[field])
            }
        } else if fields.notNumberMask & bit != 0 {
            LogTally.ensure(&sums[experiment][column].notNumber, variation, 0)
            sums[experiment][column].notNumber[variation] += 1
        } else {
            LogTally.ensure(&sums[experiment][column].missing, variation, 0)
            sums[experiment][column].missing[variation] += 1
        }
    }

    /// Adds a tally of another part of the same logs.
    mutating func merge(_ other: ValueTally) {
        lines += other.lines
        for experiment in sums.indices {
            for column in columns.indices {
                let theirs = other.sums[experiment][column]
                Self.add(theirs.sum, to: &sums[experiment][column].sum)
                Self.add(theirs.count, to: &sums[experiment][column].count)
                Self.add(theirs.missing, to: &sums[experiment][column].missing)
                Self.add(theirs.notNumber, to: &sums[experiment][column].notNumber)
                sums[experiment][column].eventUnits += theirs.eventUnits
                sums[experiment][column].eventValues += theirs.eventValues
            }
        }
    }

    private static func add<T: AdditiveArithmetic>(_ theirs: [T], to mine: inout [T]) {
        guard !theirs.isEmpty else { return }
        LogTally.ensure(&mine, theirs.count - 1, .zero)
        for index in theirs.indices { mine[index] += theirs[index] }
    }

    /// The largest magnitude of a column's per-unit sums and kept event values in an experiment
    /// (what ``ValueScale`` scales by); infinite when a unit's sum passed the largest double.
    func largestMagnitude(experiment: Int, column: Int) -> Double {
        let sums = self.sums[experiment][column]
        var largest = 0.0
        for sum in sums.sum { largest = max(largest, abs(sum)) }
        for value in sums.eventValues { largest = max(largest, abs(value)) }
        return largest
    }

    /// The sum and count of a column in an experiment of the unit in exposure slot `place`.
    func values(experiment: Int, column: Int, place: Int) -> (sum: Double, count: Int) {
        let sums = self.sums[experiment][column]
        return (place < sums.sum.count ? sums.sum[place] : 0, place < sums.count.count ? Int(sums.count[place]) : 0)
    }
}
