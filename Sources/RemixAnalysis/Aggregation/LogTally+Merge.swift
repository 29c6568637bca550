import Foundation
import RemixLogReader

extension LogTally {
    /// Adds `other` (a tally of another part of the log, or another log) into this one, matching
    /// units, experiments and variations by their exact bytes. `other`'s bad lines are shifted by
    /// `lineOffset` and named after `path` when they have no file yet.
    mutating func merge(_ other: LogTally, path: String, lineOffset: Int) {
        let (unitMap, fresh) = users.absorb(other.users)
        // The screens' columns merge on another thread meanwhile (the reading threads are done).
        let screenMerge = ScreenMerge(screens, other.screens, unitMap: unitMap, fresh: fresh)
        screens = ScreenTally()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { screenMerge.run() }
        for index in tracked.indices {
            Self.mergeLatest(&lastTimes[index], other.lastTimes[index], unitMap: unitMap, fresh: fresh)
            if let theirs = other.earliestTimes[index] { earliestTimes[index]?.merge(theirs, unitMap: unitMap) }
        }
        if let theirs = other.kept { kept?.merge(theirs, unitMap: unitMap) }
        for experiment in 0..<other.experiments.count {
            let id = other.experimentNames.withBytes(experiment) { experimentID($0) }
            mergeExperiment(other.experiments[experiment], into: id, unitMap: unitMap)
        }
        group.wait()
        screens = screenMerge.screens
        lines += other.lines
        latestTime = max(latestTime, other.latestTime)
        badLineCount += other.badLineCount
        for bad in other.badLines where badLines.count < Self.badLinesKept {
            badLines.append(bad.path.isEmpty ? BadLine(path: path, line: bad.line + lineOffset, reason: bad.reason) : bad)
        }
        tornFiles += other.tornFiles.map { $0.isEmpty ? path : $0 }
        runLines += other.runLines.prefix(max(Self.runLinesKept - runLines.count, 0))
    }

    /// Folds `theirs`, another part's per-unit column of latest times (`.min` where a unit has
    /// none), into `mine` through `unitMap`, keeping the later time. `theirs`' units from `fresh` on
    /// are new here with consecutive ids (see ``ByteStringTable/absorb(_:)``): their times are
    /// appended in one copy, giving what the unit-by-unit loop gives.
    static func mergeLatest(_ mine: inout [Int64], _ theirs: [Int64], unitMap: [Int], fresh: Int) {
        func fold(_ units: Range<Int>) {
            for unit in units where theirs[unit] != .min {
                ensure(&mine, unitMap[unit], .min)
                mine[unitMap[unit]] = max(mine[unitMap[unit]], theirs[unit])
            }
        }
        let bulk = min(fresh, theirs.count)
        fold(0..<bulk)
        guard let last = theirs[bulk...].lastIndex(where: { $0 != .min }) else { return }
        let start = unitMap[bulk]
        guard mine.count <= start else { return fold(bulk..<theirs.count) }
        mine.append(contentsOf: repeatElement(.min, count: start - mine.count))
        mine.append(contentsOf: theirs[bulk...last])
    }

    /// Makes this tally of the first part of `path` the whole a merge into an empty tally would
    /// give: its bad lines and a torn end named after `path`, its kept events allowed `keptLimit`.
    mutating func becomeWhole(path: String, keptLimit: Int?) {
        badLines = badLines.map { $0.path.isEmpty ? BadLine(path: path, line: $0.line, reason: $0.reason) : $0 }
        tornFiles = tornFiles.map { $0.isEmpty ? path : $0 }
        if let keptLimit { kept?.allow(keptLimit) }
    }

    private mutating func mergeExperiment(_ theirs: ExperimentTally, into id: Int, unitMap: [Int]) {
        var variationMap = [Int32](repeating: 0, count: theirs.variations.count)
        for index in 0..<theirs.variations.count {
            let before = experiments[id].variations.count
            let mine = theirs.variations.withBytes(index) { experiments[id].variations.intern($0) }
            if mine == before {
                experiments[id].variationIDs.append(theirs.variationIDs[index])
                experiments[id].features.append(theirs.features[index])
            } else if experiments[id].features[mine].isEmpty {
                experiments[id].features[mine] = theirs.features[index]
            }
            variationMap[index] = Int32(mine)
        }
        theirs.exposures.forEach { unit, _, exposure in
            let variation = exposure.variation == Exposure.multiple ? Exposure.multiple : variationMap[Int(exposure.variation)]
            experiments[id].exposures.add(unit: unitMap[unit], variation: variation, first: exposure.first)
        }
    }

    /// Records the feature of a variation the first time it is seen.
    mutating func noteFeature(_ feature: Span<UInt8>, experiment: Span<UInt8>,
                              variation: Span<UInt8>) {
        guard let id = experimentNames.find(experiment), let index = experiments[id].variations.find(variation),
              experiments[id].features[index].isEmpty else { return }
        experiments[id].features[index] = feature.string
    }
}

/// One screen tally merged into another on a thread of its own.
/// Unchecked `Sendable`: `screens` is written by `run` on one thread and read only after the
/// group it runs in is waited for.
private final class ScreenMerge: @unchecked Sendable {
    private(set) var screens: ScreenTally
    private let other: ScreenTally
    private let unitMap: [Int]
    private let fresh: Int

    init(_ screens: ScreenTally, _ other: ScreenTally, unitMap: [Int], fresh: Int) {
        self.screens = screens
        self.other = other
        self.unitMap = unitMap
        self.fresh = fresh
    }

    func run() {
        screens.merge(other, unitMap: unitMap, fresh: fresh)
    }
}
