import Glibc

/// What one pass over (part of) a log counts: per experiment, which variation each unit saw and
/// when it was first exposed; per unit, when each tracked event type (metrics) first and last
/// happened and when each screen was last shown. Everything is keyed by dense unit ids in flat
/// arrays, and is order-independent, so tallies of parts of a log merge exactly.
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
        /// Indexed by unit id.
        var exposures: [Exposure] = []
    }

    /// The metric event types tracked per unit.
    let tracked: [String]
    let trackedBytes: [[UInt8]]
    var users = ByteStringTable(capacity: 1 << 16)
    var experimentNames = ByteStringTable(capacity: 8)
    var experiments: [ExperimentTally] = []
    /// tracked index → unit id → first / last time (`.max` / `.min` when never).
    var firstTimes: [[Int64]]
    var lastTimes: [[Int64]]
    var screens = ByteStringTable(capacity: 16)
    /// screen id → unit id → last time shown.
    var screenTimes: [[Int64]] = []
    var lines = 0
    /// Line numbers (1-based, within this part) of the first bad lines.
    var badLines: [Int] = []
    var badLineCount = 0
    var tornFinalLine = false
    static let badLinesKept = 5

    init(tracked: [String]) {
        self.tracked = tracked
        trackedBytes = tracked.map { Array($0.utf8) }
        firstTimes = Array(repeating: [], count: tracked.count)
        lastTimes = Array(repeating: [], count: tracked.count)
    }

    mutating func noteBadLine(_ number: Int) {
        badLineCount += 1
        if badLines.count < Self.badLinesKept { badLines.append(number) }
    }

    /// Counts one scanned line.
    mutating func add(_ fields: LineFields, in line: UnsafeBufferPointer<UInt8>) {
        guard !fields.user.isEmpty, !fields.timestamp.isEmpty else { return }
        let type = Self.slice(line, fields.type)
        let isExposure = Self.equal(type, "exposure"), isScreen = Self.equal(type, "screen")
        let trackedIndex = isExposure || isScreen ? nil : trackedBytes.firstIndex { Self.equal(type, $0) }
        guard isExposure || isScreen || trackedIndex != nil,
              let time = TimestampParser.milliseconds(line, fields.timestamp) else { return }
        if isExposure {
            guard fields.inExperiment, fields.hashUsed, !fields.experiment.isEmpty, !fields.variation.isEmpty else { return }
            let unit = users.intern(Self.slice(line, fields.user))
            let experiment = Self.slice(line, fields.experiment), variation = Self.slice(line, fields.variation)
            addExposure(unit: unit, experiment: experiment, variation: variation, variationID: fields.variationID, time: time)
            if !fields.feature.isEmpty {
                noteFeature(Self.slice(line, fields.feature), experiment: experiment, variation: variation)
            }
            return
        }
        if isScreen {
            guard !fields.screen.isEmpty else { return }
            var name = Self.slice(line, fields.screen)
            if let open = name.firstIndex(of: UInt8(ascii: "(")) { name = UnsafeBufferPointer(rebasing: name[..<open]) }
            let unit = users.intern(Self.slice(line, fields.user))
            let screen = screens.intern(name)
            if screen == screenTimes.count { screenTimes.append([]) }
            Self.ensure(&screenTimes[screen], unit, .min)
            screenTimes[screen][unit] = max(screenTimes[screen][unit], time)
            return
        }
        if let index = trackedIndex {
            let unit = users.intern(Self.slice(line, fields.user))
            record(tracked: index, unit: unit, first: time, last: time)
        }
    }

    mutating func record(tracked index: Int, unit: Int, first: Int64, last: Int64) {
        Self.ensure(&firstTimes[index], unit, .max)
        Self.ensure(&lastTimes[index], unit, .min)
        firstTimes[index][unit] = min(firstTimes[index][unit], first)
        lastTimes[index][unit] = max(lastTimes[index][unit], last)
    }

    mutating func addExposure(unit: Int, experiment: UnsafeBufferPointer<UInt8>,
                              variation: UnsafeBufferPointer<UInt8>, variationID: Int, time: Int64) {
        let id = experimentNames.intern(experiment)
        if id == experiments.count { experiments.append(ExperimentTally()) }
        let before = experiments[id].variations.count
        let index = experiments[id].variations.intern(variation)
        if index == before {
            experiments[id].variationIDs.append(variationID)
            experiments[id].features.append("")
        }
        Self.ensure(&experiments[id].exposures, unit, .empty)
        let old = experiments[id].exposures[unit]
        let variation = Int32(index)
        let merged = old.variation == Exposure.none || old.variation == variation ? variation : Exposure.multiple
        experiments[id].exposures[unit] = Exposure(variation: merged, first: min(old.first, time))
    }

    /// Grows `array` with `filler` so that `index` is valid.
    static func ensure<T>(_ array: inout [T], _ index: Int, _ filler: T) {
        if array.count <= index { array.append(contentsOf: repeatElement(filler, count: index - array.count + 1)) }
    }

    static func slice(_ line: UnsafeBufferPointer<UInt8>, _ range: ByteSlice) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: line[range.start..<(range.start + range.count)])
    }

    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        name.withUTF8Buffer { expected in
            guard bytes.count == expected.count else { return false }
            for index in 0..<expected.count where bytes[index] != expected[index] { return false }
            return true
        }
    }

    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ name: [UInt8]) -> Bool {
        guard bytes.count == name.count else { return false }
        for index in 0..<name.count where bytes[index] != name[index] { return false }
        return true
    }
}
