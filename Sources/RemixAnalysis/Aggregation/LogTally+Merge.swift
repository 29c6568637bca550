extension LogTally {
    /// Adds `other` (a tally of another part of the log, or another log) into this one. Line
    /// numbers of `other`'s bad lines are shifted by `lineOffset`.
    mutating func merge(_ other: LogTally, lineOffset: Int) {
        var unitMap = [Int](repeating: 0, count: other.users.count)
        for unit in 0..<other.users.count {
            let name = Array(other.users.string(unit).utf8)
            unitMap[unit] = name.withUnsafeBufferPointer { users.intern($0) }
        }
        for index in tracked.indices {
            for (unit, first) in other.firstTimes[index].enumerated() where first != .max {
                record(tracked: index, unit: unitMap[unit], first: first, last: other.lastTimes[index][unit])
            }
        }
        for screen in 0..<other.screens.count {
            let name = Array(other.screens.string(screen).utf8)
            let mine = name.withUnsafeBufferPointer { screens.intern($0) }
            if mine == screenTimes.count { screenTimes.append([]) }
            for (unit, time) in other.screenTimes[screen].enumerated() where time != .min {
                LogTally.ensure(&screenTimes[mine], unitMap[unit], .min)
                screenTimes[mine][unitMap[unit]] = max(screenTimes[mine][unitMap[unit]], time)
            }
        }
        for experiment in 0..<other.experiments.count {
            let tally = other.experiments[experiment]
            let name = Array(other.experimentNames.string(experiment).utf8)
            for (unit, exposure) in tally.exposures.enumerated() where exposure.variation != Exposure.none {
                let key = exposure.variation >= 0 ? Array(tally.variations.string(Int(exposure.variation)).utf8) : []
                name.withUnsafeBufferPointer { experimentBytes in
                    if exposure.variation == Exposure.multiple {
                        markMultiple(unit: unitMap[unit], experiment: experimentBytes, first: exposure.first)
                    } else {
                        key.withUnsafeBufferPointer { variationBytes in
                            addExposure(unit: unitMap[unit], experiment: experimentBytes, variation: variationBytes,
                                        variationID: tally.variationIDs[Int(exposure.variation)], time: exposure.first)
                        }
                    }
                }
            }
            for (index, feature) in tally.features.enumerated() where !feature.isEmpty {
                let key = Array(tally.variations.string(index).utf8)
                let featureBytes = Array(feature.utf8)
                name.withUnsafeBufferPointer { e in
                    key.withUnsafeBufferPointer { v in
                        featureBytes.withUnsafeBufferPointer { noteFeature($0, experiment: e, variation: v) }
                    }
                }
            }
        }
        lines += other.lines
        badLineCount += other.badLineCount
        for line in other.badLines where badLines.count < Self.badLinesKept { badLines.append(line + lineOffset) }
        tornFinalLine = tornFinalLine || other.tornFinalLine
    }

    private mutating func markMultiple(unit: Int, experiment: UnsafeBufferPointer<UInt8>, first: Int64) {
        let id = experimentNames.intern(experiment)
        if id == experiments.count { experiments.append(ExperimentTally()) }
        LogTally.ensure(&experiments[id].exposures, unit, .empty)
        experiments[id].exposures[unit] = Exposure(variation: Exposure.multiple,
                                                   first: min(experiments[id].exposures[unit].first, first))
    }

    /// Records the feature of a variation the first time it is seen.
    mutating func noteFeature(_ feature: UnsafeBufferPointer<UInt8>, experiment: UnsafeBufferPointer<UInt8>,
                              variation: UnsafeBufferPointer<UInt8>) {
        guard let id = experimentNames.find(experiment), let index = experiments[id].variations.find(variation),
              experiments[id].features[index].isEmpty else { return }
        experiments[id].features[index] = String(decoding: feature, as: UTF8.self)
    }
}
