import RemixLogReader

/// What one pass over (part of) a log counts: per experiment, which variation each unit saw and
/// when it was first exposed; per unit, when each tracked event type (metrics) last happened and,
/// for the timed ones (primary metrics), its earliest few times; and when each screen was last
/// shown. Per-unit figures are flat arrays keyed by dense unit ids; an experiment's exposures
/// grow with its own units (``ExposureMap``), not with the log's. Everything is order-independent,
/// so tallies of parts of a log merge exactly.
struct LogTally {
    /// A unit's exposure to one experiment.
    struct Exposure {
        /// The variation index, `none` when not exposed, `multiple` when exposed to several.
        var variation: Int32
        /// The first exposure's time (ms).
        var first: Int64

        static let none: Int32 = -1
        static let multiple: Int32 = -2
        static let empty = Exposure(variation: none, first: .max)
    }

    /// One experiment seen in the log.
    struct ExperimentTally {
        var variations = ByteStringTable(capacity: 8)
        /// The variationId logged with each variation key.
        var variationIDs: [Int] = []
        /// The feature logged with each variation.
        var features: [String] = []
        /// Each exposed unit's exposure.
        var exposures = ExposureMap()
    }

    /// The metric event types tracked per unit.
    let tracked: [String]
    let trackedBytes: [[UInt8]]
    var users = ByteStringTable(capacity: 1 << 16)
    var experimentNames = ByteStringTable(capacity: 8)
    var experiments: [ExperimentTally] = []
    /// tracked index → unit id → last time (`.min` when never).
    var lastTimes: [[Int64]]
    /// tracked index → the earliest times per unit, for the metrics whose time to conversion is
    /// reported (nil for the others).
    var earliestTimes: [EarliestTimes?]
    var screens = ScreenTally()
    var lines = 0
    /// The first bad lines (line numbers 1-based within this part until merged into a whole).
    var badLines: [BadLine] = []
    var badLineCount = 0
    /// Files whose final line has no newline and is bad.
    var tornFiles: [String] = []
    static let badLinesKept = 5
    /// The raw lines of the first run records (see ``runLinesKept``).
    var runLines: [[UInt8]] = []
    /// Events at or after this time (ms) are left out, as if the log ended there (`--by`).
    let until: Int64
    /// The latest event time counted (`.min` before any).
    var latestTime = Int64.min
    /// Parses timestamps, remembering the last minute.
    var timestamps = TimestampCache()
    /// The value metrics' events, when the first pass keeps them (see ``KeptEvents``).
    var kept: KeptEvents?
    /// The numeric fields the scanner reads for `kept`.
    let keptFieldNames: [[UInt8]]

    init(tracked: [String], timed: Set<String> = [], until: Int64 = .max, kept: KeptEvents? = nil,
         keptFieldNames: [[UInt8]] = []) {
        self.until = until
        self.kept = kept
        self.keptFieldNames = keptFieldNames
        self.tracked = tracked
        trackedBytes = tracked.map { Array($0.utf8) }
        lastTimes = Array(repeating: [], count: tracked.count)
        earliestTimes = tracked.map { timed.contains($0) ? EarliestTimes() : nil }
    }

    mutating func noteBadLine(_ number: Int, _ reason: BadLineReason) {
        badLineCount += 1
        if badLines.count < Self.badLinesKept { badLines.append(BadLine(path: "", line: number, reason: reason)) }
    }

    /// Counts one well-formed JSON object; the reason it is bad if it is not an event (no `ts`,
    /// `type` or `user` string, or a `ts` that is not a valid date and time).
    mutating func add(_ fields: LineFields, in line: Span<UInt8>) -> BadLineReason? {
        guard fields.timestamp.isPresent else { return .missing(field: "ts") }
        guard let time = timestamps.milliseconds(line, fields.timestamp) else {
            return .badTimestamp(line.extracting(fields.timestamp.range).extracting(first: 40).string)
        }
        guard fields.type.isPresent else { return .missing(field: "type") }
        guard fields.user.isPresent else { return .missing(field: "user") }
        guard time < until else { return nil }
        if time > latestTime { latestTime = time }
        // Run records have no user.
        guard !fields.user.isEmpty else { return nil }
        let type = line.extracting(fields.type.range)
        if type.equals("exposure") {
            guard fields.inExperiment, fields.hashUsed, !fields.experiment.isEmpty, !fields.variation.isEmpty else { return nil }
            let unit = users.intern(line.extracting(fields.user.range))
            let experiment = line.extracting(fields.experiment.range), variation = line.extracting(fields.variation.range)
            addExposure(unit: unit, experiment: experiment, variation: variation, variationID: fields.variationID, time: time)
            if !fields.feature.isEmpty {
                noteFeature(line.extracting(fields.feature.range), experiment: experiment, variation: variation)
            }
            if PhaseKey.numbers.contains(fields.phase) {
                // Each phase's exposures are also kept on their own, for `--phase`.
                let name = PhaseKey.name(phase: fields.phase, experiment: experiment)
                addExposure(unit: unit, experiment: name.span, variation: variation, variationID: fields.variationID, time: time)
                if !fields.feature.isEmpty {
                    noteFeature(line.extracting(fields.feature.range), experiment: name.span, variation: variation)
                }
            }
        } else if type.equals("screen") {
            guard !fields.screen.isEmpty else { return nil }
            var name = line.extracting(fields.screen.range)
            if let open = name.firstIndex(of: UInt8(ascii: "(")) { name = name.extracting(..<open) }
            screens.add(name, unit: users.intern(line.extracting(fields.user.range)), time: time)
        } else {
            var unit: Int?
            if let index = Self.index(of: type, in: trackedBytes) {
                unit = users.intern(line.extracting(fields.user.range))
                record(tracked: index, unit: unit ?? 0, time: time)
            }
            if let typeIndex = kept?.typeIndex(type) {
                kept?.keep(typeIndex: typeIndex, unit: unit ?? users.intern(line.extracting(fields.user.range)), time: time,
                           fields: fields)
            }
        }
        return nil
    }

    mutating func record(tracked index: Int, unit: Int, time: Int64) {
        Self.ensure(&lastTimes[index], unit, .min)
        lastTimes[index][unit] = max(lastTimes[index][unit], time)
        earliestTimes[index]?.add(unit: unit, time: time)
    }

    mutating func addExposure(unit: Int, experiment: Span<UInt8>,
                              variation: Span<UInt8>, variationID: Int, time: Int64) {
        let id = experimentID(experiment)
        let before = experiments[id].variations.count
        let index = experiments[id].variations.intern(variation)
        if index == before {
            experiments[id].variationIDs.append(variationID)
            experiments[id].features.append("")
        }
        experiments[id].exposures.add(unit: unit, variation: Int32(index), first: time)
    }

    /// The id of an experiment, added if new.
    mutating func experimentID(_ name: Span<UInt8>) -> Int {
        let id = experimentNames.intern(name)
        if id == experiments.count { experiments.append(ExperimentTally()) }
        return id
    }

    /// Grows `array` with `filler` so that `index` is valid.
    @inline(__always)
    static func ensure<T>(_ array: inout [T], _ index: Int, _ filler: T) {
        guard array.count <= index else { return }
        // Units are numbered as first met, so the next one is the common case: one plain append.
        if array.count == index {
            array.append(filler)
        } else {
            array.append(contentsOf: repeatElement(filler, count: index - array.count + 1))
        }
    }

    /// The index of `bytes` among `names` (a loop over indices: no element is retained).
    @inline(__always)
    static func index(of bytes: Span<UInt8>, in names: [[UInt8]]) -> Int? {
        for index in names.indices where equal(bytes, names[index]) { return index }
        return nil
    }

    /// A loop here rather than a call into the reader, so that `name` (an element of a list) is
    /// read in place, not retained for the call.
    @inline(__always)
    static func equal(_ bytes: Span<UInt8>, _ name: [UInt8]) -> Bool {
        guard bytes.count == name.count else { return false }
        for index in name.indices where bytes[index] != name[index] { return false }
        return true
    }
}
